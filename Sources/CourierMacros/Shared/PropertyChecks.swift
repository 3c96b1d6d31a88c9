import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder

/// The one type a property attribute reads or writes, when there is one: `@QueryFlag` a `Bool`.
struct RequiredType {
    /// As a fix-it writes it.
    let spelling: String
    /// Whether an optional of it is accepted too.
    let allowsOptional: Bool
}

/// A property attribute of a request or response struct.
protocol PropertyMarker: RawRepresentable where RawValue == String {
    /// The type the attribute needs, when only one will do.
    var requiredType: RequiredType? { get }
}

/// The checks both struct macros make of their properties' attributes, each reported on the
/// attribute or the type it is about: where an attribute stands, how many a property has, its
/// `name:`, and the property's type where the attribute needs one and the spelling shows another.
struct PropertyChecks<Marker: PropertyMarker> {
    private(set) var diagnostics: [Diagnostic] = []

    mutating func check(_ declaration: StructDeclSyntax) {
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let markers = StoredProperty.markers(on: variable.attributes, Marker.self)
            guard let first = markers.first else { continue }
            if let modifier = variable.modifiers.first(where: { $0.name.text == "static" || $0.name.text == "class" }) {
                let fixed = variable.with(\.modifiers, variable.modifiers.filter { $0.id != modifier.id })
                diagnose(first.attribute, .attributeOnStaticProperty, fix: "remove '\(modifier.name.text)'", replacing: Syntax(variable), with: Syntax(fixed))
                continue
            }
            guard variable.bindings.count == 1, let binding = variable.bindings.first, binding.pattern.is(IdentifierPatternSyntax.self) else {
                diagnose(first.attribute, .attributeOnSeveralProperties)
                continue
            }
            for extra in markers.dropFirst() {
                let fixed = Self.removing(extra.attribute, from: variable)
                diagnose(extra.attribute, .twoPropertyAttributes, fix: "remove '@\(extra.kind.rawValue)'", replacing: Syntax(variable), with: Syntax(fixed))
            }
            checkName(of: first.attribute)
            if let required = first.kind.requiredType { checkType(binding, required: required, attribute: first.attribute) }
        }
    }

    /// `name:` must be a non-empty string literal, or `nil`.
    private mutating func checkName(of attribute: AttributeSyntax) {
        guard let argument = StoredProperty.arguments(of: attribute).first(where: { $0.label?.text == "name" }) else { return }
        if argument.expression.is(NilLiteralExprSyntax.self) { return }
        guard let name = ScopeParser.stringLiteral(argument.expression) else {
            diagnose(argument.expression, .nameNotStringLiteral)
            return
        }
        guard name.isEmpty else { return }
        let fixed = Self.removing(argument, from: attribute)
        diagnose(argument.expression, .emptyName, fix: "remove 'name:'", replacing: Syntax(attribute), with: Syntax(fixed))
    }

    /// A written type the attribute cannot use, or a literal initial value of another type.
    private mutating func checkType(_ binding: PatternBindingSyntax, required: RequiredType, attribute: AttributeSyntax) {
        let name = "@" + StoredProperty.courierName(of: attribute)
        let wanted = "'\(required.spelling)'" + (required.allowsOptional ? " or '\(required.spelling)?'" : "")
        guard let type = binding.typeAnnotation?.type else {
            guard let literal = TypeSpelling.literalType(of: binding.initializer?.value), literal != required.spelling,
                let value = binding.initializer?.value
            else { return }
            diagnose(value, NamedDiagnostic(base: .propertyTypeMismatch, detail: "\(name) needs \(wanted), and this value is a '\(literal)'"))
            return
        }
        let (isOptional, wrapped) = TypeSpelling.unwrapped(type)
        let fits = TypeSpelling.normalized(wrapped) == TypeSpelling.normalized(TypeSyntax(stringLiteral: required.spelling))
        if fits && (!isOptional || required.allowsOptional) { return }
        guard fits || TypeSpelling.isFullyKnown(wrapped) else { return }
        let replacement = required.spelling + (isOptional && required.allowsOptional ? "?" : "")
        let fixed = TypeSyntax(stringLiteral: replacement).with(\.leadingTrivia, type.leadingTrivia).with(\.trailingTrivia, type.trailingTrivia)
        // A non-optional type with `= nil` kept would not compile.
        let keepsNil = !replacement.hasSuffix("?") && binding.initializer?.value.is(NilLiteralExprSyntax.self) == true
        let fixIts = keepsNil
            ? []
            : [
                FixIt(
                    message: CourierFixIt(message: "change the type to '\(replacement)'", id: "changeType"),
                    changes: [.replace(oldNode: Syntax(type), newNode: Syntax(fixed))]
                )
            ]
        diagnostics.append(
            Diagnostic(
                node: Syntax(type),
                message: NamedDiagnostic(base: .propertyTypeMismatch, detail: "\(name) needs \(wanted), not '\(type.trimmedDescription)'"),
                fixIts: fixIts
            )
        )
    }

    private mutating func diagnose(_ node: some SyntaxProtocol, _ message: some DiagnosticMessage) {
        diagnostics.append(Diagnostic(node: Syntax(node), message: message))
    }

    private mutating func diagnose(
        _ node: some SyntaxProtocol,
        _ message: CourierDiagnostic,
        fix: String? = nil,
        replacing old: Syntax? = nil,
        with new: Syntax? = nil
    ) {
        diagnostics.append(Diagnostic(node: Syntax(node), message: message, fixIts: Fixes.replacing(fix, old, new)))
    }

    /// `variable` without `attribute`, the declaration's leading trivia kept.
    static func removing(_ attribute: AttributeSyntax, from variable: VariableDeclSyntax) -> VariableDeclSyntax {
        var fixed = variable
        fixed.attributes = variable.attributes.filter { $0.as(AttributeSyntax.self)?.id != attribute.id }
        fixed.leadingTrivia = variable.leadingTrivia
        return fixed
    }

    /// `attribute` without `argument`, and without parentheses when none is left.
    static func removing(_ argument: LabeledExprSyntax, from attribute: AttributeSyntax) -> AttributeSyntax {
        let kept = StoredProperty.arguments(of: attribute).filter { $0.id != argument.id }
        guard !kept.isEmpty else {
            return attribute.with(\.leftParen, nil).with(\.arguments, nil).with(\.rightParen, nil)
                .with(\.trailingTrivia, attribute.trailingTrivia)
        }
        let list = kept.enumerated().map { index, element in index == kept.count - 1 ? element.with(\.trailingComma, nil) : element }
        return attribute.with(\.arguments, .argumentList(LabeledExprListSyntax(list)))
    }
}

/// Fix-its made of one replacement.
enum Fixes {
    static func replacing(_ message: String?, _ old: Syntax?, _ new: Syntax?) -> [FixIt] {
        guard let message, let old, let new else { return [] }
        return [FixIt(message: CourierFixIt(message: message, id: message), changes: [.replace(oldNode: old, newNode: new)])]
    }
}
