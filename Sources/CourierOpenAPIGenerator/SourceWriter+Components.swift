import OpenAPIKit

/// The components as the written client names and holds them: a unique Swift name for each, and
/// the cycles of components holding each other by value, which must be broken by reference.
extension SourceWriter {
    /// The Swift type name of each schema of `components`, by its key, unique even where two keys
    /// differ only in case (the later one given a `_`, with a warning).
    static func componentNames(in document: OpenAPI.Document) -> ([String: String], [GeneratorWarning]) {
        var names: [String: String] = [:]
        var used: Set<String> = []
        var renamed: [GeneratorWarning] = []
        for key in document.components.schemas.keys {
            let plain = Naming.identifier(key.rawValue, type: true)
            var name = plain
            while used.contains(name.lowercased()) { name += "_" }
            used.insert(name.lowercased())
            names[key.rawValue] = name
            if name != plain {
                renamed.append(GeneratorWarning(
                    pointer: "#/components/schemas/\(key.rawValue.pointerToken)",
                    message: "named `\(name)`: `\(plain)` is another schema's name once case is set aside"))
            }
        }
        return (names, renamed)
    }

    /// The strongly connected groups of the graph of components holding components by value
    /// (a property that is a reference, directly or as the one member of a wrapper), each
    /// component mapped to its group when the group has a cycle (Tarjan's algorithm).
    static func cycles(in document: OpenAPI.Document, names: [String: String]) -> [String: Set<String>] {
        var edges: [String: [String]] = [:]
        // The components a schema holds by value: a reference, the one member of a wrapper, or
        // what an inline object's properties hold.
        func referenced(_ schema: JSONSchema) -> [String] {
            if let (_, member) = onlyNonNullMember(schema) { return referenced(member) }
            switch schema.value {
            case .reference(let reference, _): return reference.name.flatMap { names[$0] }.map { [$0] } ?? []
            case .all(let members, _) where members.count == 1, .one(let members, _) where members.count == 1, .any(let members, _) where members.count == 1:
                return referenced(members[0])
            case .object(_, let object): return object.properties.values.flatMap(referenced)
            default: return []
            }
        }
        for (key, schema) in document.components.schemas {
            guard let name = names[key.rawValue], case .object(_, let object) = schema.value else { continue }
            edges[name] = object.properties.values.flatMap(referenced)
        }
        var index = 0
        var indices: [String: Int] = [:]
        var lowlinks: [String: Int] = [:]
        var stack: [String] = []
        var onStack: Set<String> = []
        var groups: [String: Set<String>] = [:]
        func connect(_ node: String) {
            indices[node] = index
            lowlinks[node] = index
            index += 1
            stack.append(node)
            onStack.insert(node)
            for next in edges[node] ?? [] {
                if indices[next] == nil {
                    connect(next)
                    lowlinks[node] = min(lowlinks[node, default: 0], lowlinks[next, default: 0])
                } else if onStack.contains(next) {
                    lowlinks[node] = min(lowlinks[node, default: 0], indices[next, default: 0])
                }
            }
            guard lowlinks[node] == indices[node] else { return }
            var group: Set<String> = []
            while let member = stack.popLast() {
                onStack.remove(member)
                group.insert(member)
                if member == node { break }
            }
            let cyclic = group.count > 1 || (edges[node] ?? []).contains(node)
            if cyclic { for member in group { groups[member] = group } }
        }
        for node in edges.keys.sorted() where indices[node] == nil { connect(node) }
        return groups
    }

    /// For a `oneOf` or `anyOf` of `null` and one other schema, that schema and its index.
    static func onlyNonNullMember(_ schema: JSONSchema) -> (Int, JSONSchema)? {
        switch schema.value {
        case .one(let members, _), .any(let members, _):
            let others = members.enumerated().filter { if case .null = $0.element.value { return false } else { return true } }
            guard others.count == 1, members.count > 1 else { return nil }
            return (others[0].offset, others[0].element)
        default:
            return nil
        }
    }

    /// Whether `schema` allows `null`: nullable, or a `oneOf`/`anyOf` with a `null` member.
    static func allowsNull(_ schema: JSONSchema) -> Bool {
        if schema.nullable { return true }
        switch schema.value {
        case .one(let members, _), .any(let members, _):
            return members.contains { if case .null = $0.value { return true } else { return false } }
        default:
            return false
        }
    }

    /// The name of a type declared for an inline schema: its hint in Swift's style, with `Value`
    /// after it while that is the name of a component the declaration refers to (a nested
    /// `Project` would hide the component `Project` from a property typed with it).
    func nestedTypeName(_ hint: String) -> String {
        var name = Naming.identifier(hint, type: true)
        while hidden.contains(name) { name += "Value" }
        return name
    }

    /// The Swift names of the components `schemas` refer to, inline schemas followed.
    func referencedComponents(_ schemas: [JSONSchema]) -> Set<String> {
        var names: Set<String> = []
        var pending = schemas
        while let schema = pending.popLast() {
            switch schema.value {
            case .reference(let reference, _):
                if let key = reference.name { names.insert(componentName(key)) }
            case .object(_, let object):
                pending += object.properties.values
                if case .b(let values)? = object.additionalProperties { pending.append(values) }
            case .array(_, let array):
                if let items = array.items { pending.append(items) }
            case .all(let members, _), .one(let members, _), .any(let members, _):
                pending += members
            case .not(let negated, _):
                pending.append(negated)
            default:
                break
            }
        }
        return names
    }
}
