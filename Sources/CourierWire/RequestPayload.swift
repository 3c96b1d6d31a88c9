public import Foundation
public import OpenAPIRuntime

/// A request body as the pipeline holds it: bytes Courier encoded, or a stream.
package enum RequestPayload: Sendable {
    case bytes(Data)
    case stream(HTTPBody)

    /// The body as transports and middleware take it.
    package var httpBody: HTTPBody {
        switch self {
        case .bytes(let data): HTTPBody(data)
        case .stream(let body): body
        }
    }

    /// Whether it can be sent again.
    package var isReplayable: Bool {
        switch self {
        case .bytes: true
        case .stream(let body): body.iterationBehavior == .multiple
        }
    }
}
