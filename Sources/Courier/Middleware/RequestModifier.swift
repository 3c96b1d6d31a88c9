import Foundation

/// Changes a request before it is encoded: add a header, a query item, a field.
public protocol RequestModifier: Sendable {
    /// Changes `req`; a thrown error fails the request as ``CourierError/Kind/modifier``.
    func modify(req: inout RequestBuilder) throws
}

struct ClosureModifier: RequestModifier, StageNamed {
    let action: @Sendable (inout RequestBuilder) throws -> Void
    let name: String
    func modify(req: inout RequestBuilder) throws { try action(&req) }
    var stageName: String { name }
}
