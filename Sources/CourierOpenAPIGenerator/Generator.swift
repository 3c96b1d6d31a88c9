import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Writes a Courier client for an OpenAPI 3.0 or 3.1 document, in YAML or JSON: the models as
/// Codable types, and the operations as an `@API` protocol whose functions read as a person would
/// write them.
package struct ClientGenerator {
    package struct Configuration: Sendable {
        /// The name of the protocol of untagged operations (of all, with `protocols: .one`), and
        /// the prefix of the coders' and servers' enums; from the document's title when `nil`.
        package var name: String?
        /// Whether the protocols are `@Mock` too.
        package var mock: Bool
        /// One protocol per tag, or one for every operation.
        package var protocols: Protocols

        package enum Protocols: String, Sendable, Codable {
            case tag, one
        }

        package init(name: String? = nil, mock: Bool = false, protocols: Protocols = .tag) {
            self.name = name
            self.mock = mock
            self.protocols = protocols
        }
    }

    /// The generated source and what could not be generated as the document says.
    package struct Output: Sendable {
        package var source: String
        package var warnings: [GeneratorWarning]
        /// The same client as files of bounded size, by name, each complete with its imports:
        /// the servers, the models in groups, one file per protocol.
        package var files: [(name: String, source: String)] = []
    }

    let configuration: Configuration

    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The client for the document `text`, read from `fileName` (which errors name).
    package func generate(_ text: String, fileName: String) throws(GeneratorError) -> Output {
        let (document, loadWarnings) = try Self.load(text, fileName: fileName)
        var writer = SourceWriter(document: document, configuration: configuration)
        let header = writer.fileHeader
        let files = writer.writeFiles()
        let source = ([header] + files.map(\.body).filter { !$0.isEmpty }).joined(separator: "\n\n") + "\n"
        return Output(source: source, warnings: loadWarnings + writer.warnings, files: files.map { ($0.name, header + "\n\n" + $0.body + "\n") })
    }

    /// The document in `text` as OpenAPI 3.1 (a 3.0 document is converted), and what in it was
    /// set aside: a JSON document (its first character `{`) is read as JSON, anything else as
    /// YAML, so that a syntax error names its line; then OpenAPI's structure, so that an error
    /// names where. What a document gets wrong without stopping generation — a security
    /// requirement naming a scheme it does not declare — is left out with a warning.
    static func load(_ text: String, fileName: String) throws(GeneratorError) -> (OpenAPIKit.OpenAPI.Document, [GeneratorWarning]) {
        let isJSON = text.first(where: { !$0.isWhitespace }) == "{"
        let tree: Any?
        if isJSON {
            do {
                tree = try JSONSerialization.jsonObject(with: Data(text.utf8))
            } catch {
                throw GeneratorError(file: fileName, line: nil, "is not valid JSON: \((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? error)")
            }
        } else {
            do {
                tree = try Yams.load(yaml: text)
            } catch let error as YamlError {
                throw GeneratorError(file: fileName, line: Self.line(of: error), "is not valid YAML or JSON: \(error)")
            } catch {
                throw GeneratorError(file: fileName, line: nil, "cannot be read: \(error)")
            }
        }
        guard var root = tree as? [String: Any] else { throw GeneratorError(file: fileName, line: 1, "is not an OpenAPI document: its top level is not a mapping") }
        guard let version = root["openapi"] as? String else {
            throw GeneratorError(file: fileName, line: 1, "is not an OpenAPI 3 document: it has no `openapi` version (a Swagger 2.0 document must be converted first)")
        }
        let warnings = DocumentRepairs.dropUndeclaredSchemes(&root)
        do {
            if version.hasPrefix("3.0") {
                return (try decode(OpenAPIKit30.OpenAPI.Document.self, text, root, isJSON: isJSON, repaired: !warnings.isEmpty).convert(to: .v3_1_0), warnings)
            }
            guard version.hasPrefix("3.1") || version.hasPrefix("3.2") else {
                throw GeneratorError(file: fileName, line: 1, "has OpenAPI version \(version); 3.0, 3.1 and 3.2 are read")
            }
            return (try decode(OpenAPIKit.OpenAPI.Document.self, text, root, isJSON: isJSON, repaired: !warnings.isEmpty), warnings)
        } catch let error as GeneratorError {
            throw error
        } catch {
            let described = OpenAPIKit.OpenAPI.Error(from: error)
            let pointer = "#/" + described.codingPath.map(\.stringValue).joined(separator: "/")
            throw GeneratorError(file: fileName, line: nil, "is not a valid OpenAPI document at \(pointer): \(described.localizedDescription)")
        }
    }

    /// `Document` from the text as written, or, when a repair changed it, from the repaired tree
    /// (its keys sorted, so that the output does not depend on a dictionary's order).
    private static func decode<Document: Decodable>(_ type: Document.Type, _ text: String, _ root: [String: Any], isJSON: Bool, repaired: Bool) throws -> Document {
        if isJSON {
            let data = repaired ? try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]) : Data(text.utf8)
            return try JSONDecoder().decode(Document.self, from: data)
        }
        return try YAMLDecoder().decode(Document.self, from: repaired ? try Yams.dump(object: root, sortKeys: true) : text)
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: nil
        }
    }
}

/// A document that cannot be generated from.
package struct GeneratorError: Error, CustomStringConvertible {
    package let file: String
    /// The line the problem was found on, when the parser can tell.
    package let line: Int?
    package let message: String

    init(file: String, line: Int?, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    package var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): error: \(message)" }
}

/// A construct generated other than the document says, at `pointer` (a JSON pointer).
package struct GeneratorWarning: Sendable, Hashable, CustomStringConvertible {
    package let pointer: String
    package let message: String

    package var description: String { "warning: \(pointer): \(message)" }
}

extension String {
    /// This text as a JSON pointer token (RFC 6901): `~` and `/` escaped.
    var pointerToken: String {
        replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
