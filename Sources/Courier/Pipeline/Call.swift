import CourierWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One request in flight, from the prepare stage to the decode stage: what goes on the wire, the
/// options it is sent under — each read once, after the provider's modifiers — and the
/// pipeline's own state beside them. The stages borrow it; only the attempts stage changes it.
struct Call: Sendable {
    /// The request as middleware, interceptors and the transport see it.
    var request: RawRequest
    /// The bound on the whole call, the request's over the provider's; the connect and idle
    /// bounds are the transport's.
    let total: Duration?
    /// The transport with the call's connect and idle bounds and the body limit applied.
    let transport: BoundTransport
    /// When a failed attempt is sent again; `nil` for a policy that never retries and adds no
    /// `Idempotency-Key`, which then is not copied into the call.
    let retryPolicy: RetryPolicy?
    /// How the provider's cache is used, when it has one.
    let cachePolicy: CachePolicy
    /// Reads the body: the request's coder and key mapping over the provider's.
    let bodyDecoder: any BodyDecoder
    /// The request's own checks of the response, run after the provider's.
    let validators: [Validator]
    /// Told how much of the response body has arrived.
    let downloadProgress: ProgressHandler?
    /// The path template, for spans and metrics; `nil` for a request to an absolute URL.
    let pathTemplate: String?
    /// Headers that never follow a redirect to another origin beside the provider's secrets:
    /// the ones the authenticator set.
    var secretHeaders: Set<HTTPField.Name> = []
    /// Reports the call, when a tracer, a metrics backend or a logger listens.
    var observer: RequestObserver?
    /// Where the redirects of an attempt ended — the cache key of the last hop's target — when
    /// the provider has a cache, which stores the response under it; set only when a redirect
    /// was followed.
    var redirectTarget: Locked<String?>?

    /// Whether the response body is handed over unread.
    var streams: Bool { request.streamsResponse }
}

/// What the exchange stage gives back: the final response's head, its body read whole or still
/// arriving, and the request it answered (the attempt's, credential and trace fields included).
struct Reply: Sendable {
    var head: ResponseHead
    var body: Body
    var request: RawRequest
    /// Where the response came from, when the provider has a cache.
    var cache: CacheOutcome?

    /// The body, read whole or still arriving, as transports hand it over.
    typealias Body = ReceivedBody

    /// Whether the body is still arriving, not read whole.
    var isArriving: Bool {
        if case .stream = body { return true }
        return false
    }

    /// The body's bytes, when it was read whole.
    var data: Data? {
        if case .whole(let data) = body { return data }
        return nil
    }
}

extension Reply {
    /// A reply whose head is in HTTPTypes' form (a cache's, or one made up by the pipeline).
    init(head: HTTPResponse, body: Body, request: RawRequest) {
        self.init(head: ResponseHead(head), body: body, request: request)
    }
}
