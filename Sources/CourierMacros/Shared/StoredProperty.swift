import SwiftSyntax

/// An instance property of a request or response struct, with the Courier attribute on it.
struct StoredProperty {
    let variable: VariableDeclSyntax
    let binding: PatternBindingSyntax
    let name: String

    /// Whether it has accessors, and so stores nothing.
    var isComputed: Bool { binding.accessorBlock != nil }

    /// Every instance property declared with a simple name.
    static func all(in declaration: StructDeclSyntax) -> [StoredProperty] {
        declaration.memberBlock.members.compactMap { member in
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }),
                let binding = variable.bindings.first,
                let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            else { return nil }
            return StoredProperty(variable: variable, binding: binding, name: name)
        }
    }

    /// The first attribute that names a `Marker`, with the marker.
    func marker<Marker: RawRepresentable>(_ type: Marker.Type) -> (attribute: AttributeSyntax, kind: Marker)? where Marker.RawValue == String {
        for element in variable.attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let spelled = attribute.attributeName.trimmedDescription
            let name = spelled.hasPrefix("Courier.") ? String(spelled.dropFirst("Courier.".count)) : spelled
            if let kind = Marker(rawValue: name) { return (attribute, kind) }
        }
        return nil
    }

    /// The arguments of an attribute.
    static func arguments(of attribute: AttributeSyntax) -> [LabeledExprSyntax] {
        Array(attribute.arguments?.as(LabeledExprListSyntax.self) ?? [])
    }
}
