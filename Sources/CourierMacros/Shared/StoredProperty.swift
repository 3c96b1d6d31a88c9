import SwiftSyntax

/// An instance property of a request or response struct, with the Courier attribute on it.
struct StoredProperty {
    let variable: VariableDeclSyntax
    let binding: PatternBindingSyntax
    let name: String

    /// Whether it has a getter, and so stores nothing: a body of its own, or `get`, `set`,
    /// `_read` or `_modify` accessors. A property with only `willSet` or `didSet` stores a value.
    var isComputed: Bool {
        guard let block = binding.accessorBlock else { return false }
        switch block.accessors {
        case .getter:
            return true
        case .accessors(let accessors):
            return accessors.contains { ["get", "set", "_read", "_modify", "unsafeAddress", "unsafeMutableAddress"].contains($0.accessorSpecifier.text) }
        }
    }

    /// The type as written, if it is.
    var type: TypeSyntax? { binding.typeAnnotation?.type }

    /// Every instance property declared with a simple name.
    static func all(in declaration: StructDeclSyntax) -> [StoredProperty] {
        declaration.memberBlock.members.compactMap { member in
            guard let variable = member.decl.as(VariableDeclSyntax.self), !isStatic(variable),
                let binding = variable.bindings.first,
                let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            else { return nil }
            return StoredProperty(variable: variable, binding: binding, name: name)
        }
    }

    /// Whether the declaration is `static` or `class`.
    static func isStatic(_ variable: VariableDeclSyntax) -> Bool {
        variable.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
    }

    /// The first attribute that names a `Marker`, with the marker.
    func marker<Marker: RawRepresentable>(_ type: Marker.Type) -> (attribute: AttributeSyntax, kind: Marker)? where Marker.RawValue == String {
        Self.markers(on: variable.attributes, type).first
    }

    /// Every attribute of `attributes` that names a `Marker`, in order.
    static func markers<Marker: RawRepresentable>(
        on attributes: AttributeListSyntax,
        _ type: Marker.Type
    ) -> [(attribute: AttributeSyntax, kind: Marker)] where Marker.RawValue == String {
        attributes.compactMap { element in
            guard let attribute = element.as(AttributeSyntax.self) else { return nil }
            return Marker(rawValue: courierName(of: attribute)).map { (attribute, $0) }
        }
    }

    /// The attribute's name without a `Courier.` module prefix.
    static func courierName(of attribute: AttributeSyntax) -> String {
        let spelled = attribute.attributeName.trimmedDescription
        return spelled.hasPrefix("Courier.") ? String(spelled.dropFirst("Courier.".count)) : spelled
    }

    /// The arguments of an attribute.
    static func arguments(of attribute: AttributeSyntax) -> [LabeledExprSyntax] {
        Array(attribute.arguments?.as(LabeledExprListSyntax.self) ?? [])
    }
}
