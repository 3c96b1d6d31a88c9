import CourierWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that applies a provider's connect and idle bounds and its body limit itself.
/// A transport that does not adopt it is sent through as it is, and only ``Timeouts/total``,
/// which the pipeline enforces, bounds its requests.
package protocol BoundableTransport: ClientTransport {
    /// This transport with `timeouts`' connect and idle bounds, holding at most `bodyLimit`
    /// bytes of a response body for its reader (or its own bound, when that is larger).
    func bounded(by timeouts: Timeouts, bodyLimit: Int) -> any ClientTransport
}

/// A transport as the pipeline sends through it: bounded, with its whole-body path found once
/// rather than per request. A class, so that each call and each exchange holds it by one
/// reference rather than copying two existentials.
final class BoundTransport: Sendable {
    let base: any ClientTransport
    let whole: (any WholeBodyTransport)?
    /// Why the transport cannot apply the provider's connection settings; every request fails
    /// with it.
    let failure: CourierError?

    /// `transport` with `connections` applied — trust, HTTP/2, proxy — and `timeouts`' connect
    /// and idle bounds and `bodyLimit`, when it can apply them. Settings it cannot apply make
    /// every request fail.
    init(_ transport: any ClientTransport, _ timeouts: Timeouts, bodyLimit: Int, connections: ConnectionSettings) {
        let trusted: any ClientTransport
        switch Provider.apply(connections, to: transport) {
        case .success(let transport):
            trusted = transport
            failure = nil
        case .failure(let error):
            trusted = RefusedTransport(error: error)
            failure = error
        }
        let bounded = (trusted as? any BoundableTransport)?.bounded(by: timeouts, bodyLimit: bodyLimit) ?? trusted
        self.base = bounded
        self.whole = bounded as? any WholeBodyTransport
    }
}
