import CourierWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// The exchange stage: one attempt of `call` through the middleware chain, then the
    /// transport hop by hop — cookies added and kept, redirects followed under the
    /// ``RedirectPolicy``. The status is not checked. A transport that can hands a small body over
    /// read whole, to the middleware too.
    @inline(__always)  // into the attempts: an attempt shares their frame
    nonisolated(nonsending) func exchange(_ call: Call) async throws(CourierError) -> Reply {
        // Read whole only where it would be read whole anyway: a buffered call, its progress not
        // counted chunk by chunk. Interceptors read it whole too; other middleware gets it as a
        // body of one part.
        let wholeUpTo = call.streams || call.downloadProgress != nil ? nil : responseBodyLimit
        let step = TransportStep(
            transport: call.transport, redirects: redirects, cookieJar: cookieJar, secrets: call.secretHeaders, wholeUpTo: wholeUpTo,
            operationID: call.request.operationID, redirectTarget: call.redirectTarget)
        guard stages.isEmpty else { return try await exchangeThroughMiddleware(call, step) }
        do {
            let (head, body) = try await step.send(call.request)
            return Reply(head: head, body: body, request: call.request)
        } catch {
            throw Self.failure(error, of: call.request)
        }
    }

    /// The exchange through the middleware chain: a function of its own, so that the frame of
    /// an exchange without middleware holds none of what the chain needs.
    @inline(never)
    private nonisolated(nonsending) func exchangeThroughMiddleware(_ call: Call, _ step: TransportStep) async throws(CourierError) -> Reply {
        let request = call.request
        do {
            var reply = try await chain(around: step)(request)
            reply.request = request
            // An interceptor read the body whole; progress counts the bytes as the caller reads
            // them, so they go on as a body still to read.
            if call.downloadProgress != nil, case .whole(let data) = reply.body { reply.body = .stream(data.map { HTTPBody($0) }) }
            return reply
        } catch {
            throw Self.failure(error, of: request)
        }
    }

    /// What the exchange of `request` throws for `error`.
    @inline(never)
    private static func failure(_ error: any Error, of request: RawRequest) -> CourierError {
        let classified = error as? CourierError ?? PipelineErrors.classifyTransport(error)
        return classified.with(operationID: request.operationID, request: request)
    }

    /// The middleware wrapped around `step`, outermost first, each stage handed the request
    /// as the pipeline carries it. Each stage's own errors are blamed on it by name; errors from
    /// further in pass through unchanged. Interceptors read bodies up to this provider's limit.
    private func chain(around step: TransportStep) -> MiddlewareNext {
        var next: MiddlewareNext = { request in
            do {
                let (head, body) = try await step.send(request)
                return Reply(head: head, body: body, request: request)
            } catch {
                throw PipelineErrors.classifyTransport(error)
            }
        }
        let limit = responseBodyLimit
        for stage in stages.reversed() {
            let inner = next
            next = { request in
                do {
                    return try await stage.run(request, bodyLimit: limit, next: inner)
                } catch let error as CourierError {
                    throw error
                } catch {
                    if PipelineErrors.isCancellation(error) { throw CourierError(.cancelled(error)) }
                    throw CourierError(.middleware(stage: stage.name, error))
                }
            }
        }
        return next
    }
}

/// The transport as the exchange calls it: each hop sent with the cookie jar's cookies, its
/// `Set-Cookie` headers kept, and redirects followed under the ``RedirectPolicy``
/// (`Redirects/RedirectFollowing.swift`).
struct TransportStep: Sendable {
    let transport: BoundTransport
    let redirects: RedirectPolicy
    let cookieJar: CookieJar?
    /// Headers removed on a redirect to another origin, beside the policy's and the ones always
    /// removed.
    let secrets: Set<HTTPField.Name>
    /// When set, a body of at most this many bytes is read whole by a transport that can.
    let wholeUpTo: Int?
    let operationID: String
    /// Told the cache key of the last hop's target when a redirect is followed.
    let redirectTarget: Locked<String?>?

    /// The transport and the limit a body is read whole with, when it is.
    private var readsWhole: (any WholeBodyTransport, Int)? {
        guard let limit = wholeUpTo, let whole = transport.whole else { return nil }
        return (whole, limit)
    }

    @inline(__always)  // into the exchange: one call frame fewer per request
    nonisolated(nonsending) func send(_ request: RawRequest) async throws -> (ResponseHead, Reply.Body) {
        let first = try await hop(request)
        guard redirects.limit > 0, Self.isRedirect(first.0.status.code) else { return first }
        return try await follow(first, of: request)
    }

    /// One exchange with the transport, with the jar's cookies added and its answer's kept. The
    /// common hop — no jar, a body read whole by a transport that can — is inlined; any other
    /// is a function of its own, so that the frame of the common one holds one answer.
    @inline(__always)
    nonisolated(nonsending) func hop(_ request: RawRequest) async throws -> (ResponseHead, Reply.Body) {
        if cookieJar == nil, let (whole, limit) = readsWhole {
            return try await whole.sendReadingWhole(request.head, payload: request.payload, baseURL: request.baseURL, limit: limit)
        }
        return try await anyHop(request)
    }

    /// ``hop(_:)`` with a cookie jar, or a body handed over as it arrives.
    @inline(never)
    private nonisolated(nonsending) func anyHop(_ request: RawRequest) async throws -> (ResponseHead, Reply.Body) {
        guard let cookieJar else { return try await transmit(request) }
        return try await hopKeepingCookies(request, in: cookieJar)
    }

    /// A hop with a cookie jar.
    private nonisolated(nonsending) func hopKeepingCookies(_ request: RawRequest, in cookieJar: CookieJar) async throws -> (ResponseHead, Reply.Body) {
        var request = request
        let url = request.url ?? request.baseURL
        if let header = cookieJar.header(for: url) {
            // Beside the request's own; every transport sends all `Cookie` fields as one header.
            request.headers.append(HTTPField(name: .cookie, value: header))
        }
        let answer = try await transmit(request)
        cookieJar.receive(answer.0.headerFields[values: .setCookie], from: url)
        return answer
    }

    @inline(__always)
    private nonisolated(nonsending) func transmit(_ request: RawRequest) async throws -> (ResponseHead, Reply.Body) {
        if let (whole, limit) = readsWhole {
            return try await whole.sendReadingWhole(request.head, payload: request.payload, baseURL: request.baseURL, limit: limit)
        }
        let (head, body) = try await transport.base.send(request.head, body: request.body, baseURL: request.baseURL, operationID: operationID)
        return (ResponseHead(head), .stream(body))
    }
}
