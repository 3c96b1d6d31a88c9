public import Foundation
public import OpenAPIRuntime

/// A response body as a transport hands it to the pipeline: read whole, or still arriving.
package enum ReceivedBody: Sendable {
    /// Read whole; `nil` for no body.
    case whole(Data?)
    /// Still arriving; `nil` for no body.
    case stream(HTTPBody?)

    /// The body as middleware and streams take it.
    package var httpBody: HTTPBody? {
        switch self {
        case .whole(let data): data.map { HTTPBody($0) }
        case .stream(let body): body
        }
    }
}
