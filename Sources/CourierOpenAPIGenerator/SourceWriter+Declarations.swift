import Foundation
import OpenAPIKit

/// The declarations of models: structs for objects, enums for string values and for choices.
extension SourceWriter {
    mutating func structure(
        named name: String,
        properties: [(String, JSONSchema)],
        required: Set<String>,
        description: String?,
        pointer: String,
        nested: inout [String]
    ) -> String {
        var lines = [Self.doc(description) + "struct \(name): Codable, Hashable, Sendable {"]
        var keys: [String] = []
        var renamed = false
        for (key, property) in properties {
            let swiftName = Naming.identifier(key)
            var type = type(of: property, pointer: pointer + "/properties/\(key.pointerToken)", hint: key, nested: &nested)
            if let component, type == component || cycles[component]?.contains(type) == true {
                type = "Indirect<\(type)>"
                needsIndirect = true
            }
            let optional = !required.contains(key) || Self.allowsNull(property)
            if let text = property.description { lines.append("    /// \(Self.oneLine(text))") }
            if property.deprecated { lines.append("    @available(*, deprecated)") }
            lines.append("    var \(swiftName): \(type)\(optional ? "?" : "")")
            let bare = swiftName.replacingOccurrences(of: "`", with: "")
            keys.append(bare == key ? "case \(swiftName)" : "case \(swiftName) = \(Self.literal(key))")
            renamed = renamed || bare != key
        }
        if renamed {
            lines.append("")
            lines.append("    enum CodingKeys: String, CodingKey {")
            lines.append(contentsOf: keys.map { "        \($0)" })
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    func stringEnum(named name: String, values: [String], description: String?) -> String {
        valueEnum(named: name, values: values.map { (title: nil, value: $0) }, integers: false, description: description)
    }

    /// An enum of the values a schema allows, strings or integers, with a case for those this
    /// client does not know. A case is named by its value's `title` where it has one (a `oneOf`
    /// of `const`s), else by the value (`value19` for an integer).
    func valueEnum(named name: String, values: [(title: String?, value: String)], integers: Bool, description: String?) -> String {
        var cases: [(swift: String, value: String)] = []
        for (title, value) in values {
            var swift = Naming.identifier(title ?? (integers ? "value \(value)" : value))
            // Two values with one Swift name: the later one is numbered.
            while cases.contains(where: { $0.swift == swift }) || swift == "unknown" { swift += "_" }
            cases.append((swift, value))
        }
        let rawType = integers ? "Int" : "String"
        let literal = { (value: String) in integers ? value : Self.literal(value) }
        var lines = [Self.doc(description) + "enum \(name): RawRepresentable, Codable, Hashable, Sendable {"]
        lines += cases.map { "    case \($0.swift)" }
        lines += [
            "    /// A value this client does not know: a server may add values without breaking it.",
            "    case unknown(\(rawType))",
            "",
            "    /// The value as sent.",
            "    var rawValue: \(rawType) {",
            "        switch self {",
        ]
        lines += cases.map { "        case .\($0.swift): \(literal($0.value))" }
        lines += [
            "        case .unknown(let value): value",
            "        }",
            "    }",
            "",
            "    init(rawValue: \(rawType)) {",
            "        switch rawValue {",
        ]
        lines += cases.map { "        case \(literal($0.value)): self = .\($0.swift)" }
        lines += [
            "        default: self = .unknown(rawValue)",
            "        }",
            "    }",
            "",
            "    init(from decoder: any Decoder) throws {",
            "        self.init(rawValue: try decoder.singleValueContainer().decode(\(rawType).self))",
            "    }",
            "",
            "    func encode(to encoder: any Encoder) throws {",
            "        var container = encoder.singleValueContainer()",
            "        try container.encode(rawValue)",
            "    }",
            "}",
        ]
        return lines.joined(separator: "\n")
    }

    /// For a `oneOf` or `anyOf` whose members are each one value (`const`, or an `enum` of one),
    /// all strings or all integers, those values with their titles; `null` members aside.
    static func constants(_ schema: JSONSchema) -> (values: [(title: String?, value: String)], integers: Bool)? {
        let members: [JSONSchema]
        switch schema.value {
        case .one(let all, _), .any(let all, _): members = all.filter { if case .null = $0.value { false } else { true } }
        default: return nil
        }
        guard members.count > 1 else { return nil }
        var values: [(title: String?, value: String)] = []
        var integers: Bool?
        for member in members {
            guard let allowed = member.allowedValues, allowed.count == 1 else { return nil }
            switch allowed[0].value {
            case let value as Int where integers != false:
                integers = true
                values.append((member.title, String(value)))
            case let value as String where integers != true:
                integers = false
                values.append((member.title, value))
            default:
                return nil
            }
        }
        return (values, integers ?? false)
    }

    mutating func choice(
        named name: String,
        keywordName: String,
        members: [JSONSchema],
        discriminator: OpenAPI.Discriminator?,
        description: String?,
        pointer: String,
        nested: inout [String]
    ) -> String {
        var choices: [(type: String, tags: [String])] = []
        for (index, member) in members.enumerated() {
            if case .reference(let reference, _) = member.value, let target = reference.name, componentName(target) == name {
                // Trying the schema itself while decoding it would never end.
                warn(pointer + "/\(keywordName)/\(index)", "a member that is `\(name)` itself is left out of `\(name)`")
                continue
            }
            let type = type(of: member, pointer: pointer + "/\(keywordName)/\(index)", hint: "\(name)Option\(index + 1)", nested: &nested)
            // The discriminator's values for this member: those the mapping gives it, else its
            // component name.
            var tags: [String] = []
            if case .reference(let reference, _) = member.value, let component = reference.name {
                let mapped = discriminator?.mapping?.filter { $0.value.hasSuffix("/" + component) || $0.value == component }.map(\.key) ?? []
                tags = mapped.isEmpty ? [component] : mapped
            }
            choices.append((type, tags))
        }
        let cases = zip(Self.shortCaseNames(choices.map(\.type)), choices).map { (swift: $0, type: $1.type, tags: $1.tags) }
        var lines = [Self.doc(description) + "indirect enum \(name): Codable, Hashable, Sendable {"]
        lines += cases.map { "    case \($0.swift)(\($0.type))" }
        lines += ["", "    init(from decoder: any Decoder) throws {"]
        if let discriminator, cases.allSatisfy({ !$0.tags.isEmpty }) {
            lines += [
                "        let container = try decoder.container(keyedBy: AnyCodingKey.self)",
                "        let tag = try container.decode(String.self, forKey: AnyCodingKey(\(Self.literal(discriminator.propertyName))))",
                "        switch tag {",
            ]
            lines += cases.map { "        case \($0.tags.map(Self.literal).joined(separator: ", ")): self = .\($0.swift)(try \($0.type)(from: decoder))" }
            lines += [
                "        default:",
                "            throw DecodingError.dataCorruptedError(forKey: AnyCodingKey(\(Self.literal(discriminator.propertyName))), in: container, debugDescription: \"no \(name) is tagged \\(tag)\")",
                "        }",
                "    }",
            ]
            nested.append(Self.anyCodingKey)
        } else {
            if discriminator != nil {
                warn(pointer + "/discriminator", "a discriminator over inline schemas is not used; each member is tried in turn")
            }
            // `Swift.Error`: a document may have a schema called Error.
            lines += ["        var failures: [any Swift.Error] = []"]
            for item in cases {
                lines += [
                    "        do {",
                    "            self = .\(item.swift)(try \(item.type)(from: decoder))",
                    "            return",
                    "        } catch {",
                    "            failures.append(error)",
                    "        }",
                ]
            }
            lines += [
                "        throw DecodingError.dataCorrupted(",
                "            DecodingError.Context(codingPath: decoder.codingPath, debugDescription: \"no member of \(name) reads this value: \\(failures)\")",
                "        )",
                "    }",
            ]
        }
        lines += ["", "    func encode(to encoder: any Encoder) throws {", "        switch self {"]
        lines += cases.map { "        case .\($0.swift)(let value): try value.encode(to: encoder)" }
        lines += ["        }", "    }", "}"]
        return lines.joined(separator: "\n")
    }

    /// The cases of a `oneOf` named as a person would: the words all its members' type names
    /// share at the start and at the end left out (`ChatCompletionRequestUserMessage` and
    /// `ChatCompletionRequestToolMessage` give `user` and `tool`). The names from the types
    /// themselves when a member is not a named type, or when the short names would collide.
    static func shortCaseNames(_ types: [String]) -> [String] {
        // An array of a named type is named after the last word of that name, in the plural
        // (`[ChatCompletionRequestUserMessageContentPart]` gives `parts`).
        let full = types.map { type in
            if type.hasPrefix("["), type.hasSuffix("]"), case let element = String(type.dropFirst().dropLast()),
               element.allSatisfy({ $0.isLetter || $0.isNumber }), case let elementWords = Naming.words(element),
               elementWords.count > 1, let last = elementWords.last, last.allSatisfy(\.isLetter) {
                let plural = last.hasSuffix("s") ? last + "es"
                    : last.hasSuffix("y") && !"aeiou".contains(last.dropLast().last ?? "a") ? last.dropLast() + "ies" : last + "s"
                return Naming.identifier(plural)
            }
            return Naming.identifier(type.replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "List"))
        }
        let words = types.map(Naming.words)
        guard types.count > 1, types.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber } }) else { return uniqued(full) }
        let shortest = words.map(\.count).min() ?? 0
        var prefix = 0
        while prefix < shortest - 1, Set(words.map { $0[prefix] }).count == 1 { prefix += 1 }
        var suffix = 0
        while prefix + suffix < shortest - 1, Set(words.map { $0[$0.count - 1 - suffix] }).count == 1 { suffix += 1 }
        guard prefix + suffix > 0 else { return uniqued(full) }
        let short = words.map { Naming.identifier($0[prefix..<($0.count - suffix)].joined(separator: " ")) }
        return Set(short).count == short.count ? short : uniqued(full)
    }

    private static func uniqued(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.map { name in
            var unique = name
            while seen.contains(unique) { unique += "_" }
            seen.insert(unique)
            return unique
        }
    }
}
