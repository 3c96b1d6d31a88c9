import SwiftDiagnostics
import SwiftSyntax

/// The checks of bodies that cannot mean one response: two for the same statuses, statuses that
/// overlap, a body no status reaches, a required body that hides the others.
extension ResponseStructParser {
    mutating func checkBodies(_ bodies: [Body]) {
        for (index, body) in bodies.enumerated() {
            guard let statuses = body.statuses else { continue }
            for other in bodies[..<index] {
                guard let taken = other.statuses else { continue }
                if taken == statuses {
                    diagnose(body.attribute, NamedDiagnostic(base: .sameStatusesAsOtherBody, detail: "'\(other.property.name)' is read for \(statuses.description)"))
                    break
                }
                let shared = StatusSet(codes: taken.codes.intersection(statuses.codes))
                if !shared.codes.isEmpty {
                    diagnose(body.attribute, NamedDiagnostic(base: .overlappingStatuses, detail: "\(shared.description), also read into '\(other.property.name)'"))
                    break
                }
            }
        }
        let hasErrorBody = bodies.contains { $0.kind == .errorBody }
        for body in bodies where body.kind == .body && !body.isDefault && !hasErrorBody {
            guard let statuses = body.statuses else { continue }
            let unread = StatusSet(codes: statuses.codes.filter { !(200...299).contains($0) })
            guard !unread.codes.isEmpty else { continue }
            let renamed = body.attribute.with(\.attributeName, TypeSyntax(IdentifierTypeSyntax(name: .identifier("ResponseErrorBody"))))
            let fixIts = unread == statuses ? Fixes.replacing("use @ResponseErrorBody", Syntax(body.attribute), Syntax(renamed)) : []
            diagnose(body.attribute, NamedDiagnostic(base: .bodyForFailingStatus, detail: unread.description), fixIts: fixIts)
        }
        for body in bodies where body.kind == .errorBody || bodies.count > 1 {
            guard let type = body.property.type, !TypeSpelling.unwrapped(type).isOptional else { continue }
            let fixed = TypeSyntax(OptionalTypeSyntax(wrappedType: type.trimmed))
                .with(\.leadingTrivia, type.leadingTrivia).with(\.trailingTrivia, type.trailingTrivia)
            diagnose(type, CourierDiagnostic.requiredBodyBesideOthers, fixIts: Fixes.replacing("make it optional", Syntax(type), Syntax(fixed)))
        }
    }
}
