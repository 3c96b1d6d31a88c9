import Foundation
import OpenAPIKit

/// Swift text: comments, literals, indentation, and the helper types a client may need.
extension SourceWriter {
    /// The keyword of a combining schema, for pointers.
    static func keyword(_ schema: JSONSchema) -> String {
        switch schema.value {
        case .all: "allOf"
        case .one: "oneOf"
        case .any: "anyOf"
        default: ""
        }
    }

    // MARK: - Text

    static func doc(_ description: String?) -> String {
        guard let description, !description.isEmpty else { return "" }
        return description.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { "/// \($0)".trimmingTrailingSpaces() }.joined(separator: "\n") + "\n"
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// `text` as a Swift string literal.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 { result += "\\u{\(String(scalar.value, radix: 16))}" } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result + "\""
    }

    static func indented(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
    }

    static let indirect = """
        /// A model that contains itself, held by reference so that the struct around it has a size.
        final class Indirect<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
            let value: Value

            init(_ value: Value) { self.value = value }
            init(from decoder: any Decoder) throws { value = try Value(from: decoder) }
            func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
            static func == (left: Indirect, right: Indirect) -> Bool { left.value == right.value }
            func hash(into hasher: inout Hasher) { hasher.combine(value) }
        }
        """

    static let anyCodingKey = """
        struct AnyCodingKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        """
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
