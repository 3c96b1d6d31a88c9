import Foundation
#if canImport(CourierHTTPClientTransport)
import CourierHTTPClientTransport
#endif
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// Sends `request` and returns its value: the one way any request is sent.
    ///
    /// In order: the request's authentication, the provider's modifiers, encoding, the request's
    /// own hooks; then each attempt — the provider's ``Authenticator`` credential, the middleware
    /// chain, the transport (following redirects and keeping cookies hop by hop) — as often as the
    /// ``RetryPolicy`` and the authenticator allow; then the provider's validators, the request's
    /// validators, and the response decoder. The ``Timeouts`` — the request's over the
    /// provider's — bound all the attempts together. Every failure is a ``CourierError`` naming
    /// the stage.
    ///
    /// The provider's ``Observability`` sees the request from the start: its span covers the
    /// attempts and the decoding, and is the current one while they run.
    public func send<Value>(_ request: Request<Value>) async throws(CourierError) -> Value {
        guard let observer = RequestObserver.start(observability) else {
            return try await deliver(request, prepare(request))
        }
        do throws(CourierError) {
            var raw: RawRequest
            do {
                raw = try prepare(request)
            } catch {
                observer.describeUnsent(request.builder, baseURL: baseURL, operationID: request.operationID)
                throw error
            }
            observer.begin(&raw, base: baseParts)
            let prepared = raw
            let value = try await RequestObserver.within(observer.span) { () async throws(CourierError) in
                try await self.deliver(request, prepared)
            }
            observer.end()
            return value
        } catch {
            observer.end(error)
            throw error
        }
    }

    /// Sends the prepared `raw` of `request` and returns its value.
    @inline(__always)
    private func deliver<Value>(_ request: Request<Value>, _ raw: RawRequest) async throws(CourierError) -> Value {
        let total = raw.timeouts.total ?? timeouts.total
        let policy = request.builder.retryPolicy ?? retryPolicy
        let authenticator = authenticator(for: raw)
        // The attempts so far, for an error that ends them from outside: only when there can be
        // more than one and a total bound can end them.
        let mayRepeat = policy.retries || authenticator != nil
        let progress = total != nil && mayRepeat ? Locked(RetryRecord()) : nil
        switch request.decoder.read {
        case .buffered(let decode):
            let (response, record): (Response, RetryRecord) =
                if total == nil, !mayRepeat {
                    // One attempt and no bound of its own: no closure to make for the loop.
                    (try await execute(raw), RetryRecord())
                } else if let total {
                    try await within(total, raw, progress) { () async throws(CourierError) in
                        try await self.exchange(raw, policy, authenticator, total, progress, as: Response.self)
                    }
                } else {
                    try await exchange(raw, policy, authenticator, nil, nil, as: Response.self)
                }
            raw.observer?.responded(response.head, bodyBytes: response.body?.count)
            do {
                try validate(response, request.validators)
                return try decode(response, bodyDecoder(for: request.builder))
            } catch {
                throw record.attach(error.with(operationID: raw.operationID, request: raw))
            }
        case .streamed(let wrap):
            let (streaming, record): (StreamingOutcome, RetryRecord) =
                if let total {
                    try await within(total, raw, progress) { () async throws(CourierError) in
                        try await self.exchange(raw, policy, authenticator, total, progress, as: StreamingOutcome.self)
                    }
                } else {
                    try await exchange(raw, policy, authenticator, nil, nil, as: StreamingOutcome.self)
                }
            let (head, body) = (streaming.head, streaming.body)
            raw.observer?.responded(head, bodyBytes: nil)
            do {
                try validate(Response(head: head, body: nil, request: raw), request.validators)
            } catch {
                throw record.attach(error)
            }
            guard head.status.kind == .successful else {
                // The error carries the start of the body — at most 64 KiB, read within the
                // total bound (10 s without one) — and the rest is never read.
                let prefix = try? await within(total ?? .seconds(10), raw) { () async throws(CourierError) in
                    await collectPrefix(of: body, upTo: 64 * 1024)
                }
                let response = Response(head: head, body: prefix, request: raw)
                throw record.attach(CourierError(.status(head.status), operationID: raw.operationID, request: raw, response: response))
            }
            var delivered = ClassifiedBody.wrap(body ?? HTTPBody(), raw)
            if let observer = raw.observer { delivered = observer.countingResponse(delivered) }
            var streamed = StreamedResponse(head: head, body: raw.downloadProgress?.counting(delivered) ?? delivered, request: raw)
            if request.decoder.usesStreamContext { streamed.context = streamContext(for: request) }
            return wrap(streamed)
        }
    }

    /// What a typed stream of `request`'s response needs from the pipeline: the body decoder,
    /// and a way to send the same request again — the whole pipeline, authentication, hooks and
    /// validation included — with extra header fields (`Last-Event-ID`).
    private func streamContext<Value>(for request: Request<Value>) -> StreamContext {
        var again = Request<StreamedResponse>(request.builder, receiving: .stream)
        again.authentication = request.authentication
        again.validators = request.validators
        again.adjustments = request.adjustments
        return StreamContext(
            bodyDecoder: bodyDecoder(for: request.builder),
            resend: { [again] fields throws(CourierError) in
                var request = again
                for field in fields { request.builder.headers[field.name] = field.value }
                return try await self.send(request)
            },
            budget: retryBudget,
            clock: clock,
            recordLimit: responseBodyLimit
        )
    }

    /// One attempt when neither a retry policy nor an authenticator applies — nothing to record —
    /// and otherwise as many as they allow.
    private func exchange<Outcome: AttemptOutcome>(
        _ raw: RawRequest,
        _ policy: RetryPolicy,
        _ authenticator: (any RequestAuthenticating)?,
        _ total: Duration?,
        _ progress: Locked<RetryRecord>?,
        as _: Outcome.Type
    ) async throws(CourierError) -> (Outcome, RetryRecord) {
        guard policy.retries || authenticator != nil else { return (try await Outcome.exchange(raw, on: self), RetryRecord()) }
        return try await attempting(raw, policy: policy, authenticator: authenticator, total: total, progress: progress, as: Outcome.self)
    }

    /// Runs the provider's validators, then `extra`, on `response`.
    private func validate(_ response: Response, _ extra: [Validator]) throws(CourierError) {
        func run(_ validator: Validator) throws(CourierError) {
            do {
                try validator.check(response)
            } catch {
                throw CourierError(.validation(stage: validator.name, error), operationID: response.request?.operationID, request: response.request, response: response)
            }
        }
        for validator in validators { try run(validator) }
        for validator in extra { try run(validator) }
    }

    /// The body decoder for `builder`: the provider's, unless the request brings its own coder or
    /// key mapping.
    private func bodyDecoder(for builder: RequestBuilder) -> any BodyDecoder {
        guard builder.bodyDecoder != nil || builder.keyMapping != nil else { return mappedDecoder }
        let mapping = builder.keyMapping ?? keyMapping
        let base = builder.bodyDecoder ?? bodyDecoder
        return mapping.isDefault ? base : base.with(keyMapping: mapping)
    }

    /// Runs `work`, failing with ``CourierError/Kind/timeout`` when it does not finish within
    /// `timeout`. The call returns at the bound even when `work` is slow to stop: `work` runs as
    /// a task of its own, which is cancelled and left to finish on its own — so a transport that
    /// ignores cancellation cannot stretch the bound.
    ///
    /// The timeout and cancellation errors carry the attempts that `progress` holds.
    private func within<T: Sendable>(
        _ timeout: Duration,
        _ request: RawRequest,
        _ progress: Locked<RetryRecord>? = nil,
        _ work: @escaping @Sendable () async throws(CourierError) -> T
    ) async throws(CourierError) -> T {
        @Sendable func ended(_ error: CourierError) -> CourierError {
            guard let progress else { return error }
            return progress.withLock { $0 }.attach(error)
        }
        let race = Race<T>()
        let outcome: Result<T, CourierError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.start(continuation)
                race.run(
                    Task {
                        do throws(CourierError) {
                            race.finish(.success(try await work()))
                        } catch {
                            race.finish(.failure(error))
                        }
                    },
                    timer: Task {
                        guard (try? await Task.sleep(for: timeout)) != nil else { return }
                        race.finish(.failure(ended(CourierError(.timeout(TimeoutElapsed(limit: timeout)), operationID: request.operationID, request: request))))
                    }
                )
            }
        } onCancel: {
            race.finish(.failure(ended(CourierError(.cancelled(nil), operationID: request.operationID, request: request))))
        }
        return try outcome.get()
    }

    /// Runs `request` through the chain and the transport and reads the whole response, up to
    /// ``responseBodyLimit``. The status is not checked.
    func execute(_ request: RawRequest) async throws(CourierError) -> Response {
        #if canImport(CourierHTTPClientTransport)
        if middlewares.isEmpty, request.downloadProgress == nil {
            let step = transportStep(for: request)
            if let client = step.base as? HTTPClientTransport { return try await execute(request, step, on: client) }
        }
        #endif
        let (head, body) = try await executeStreaming(request)
        do {
            let data = try await collectResponseBody(body.map { request.downloadProgress?.counting($0) ?? $0 }, limit: responseBodyLimit, status: head.status)
            return Response(head: head, body: data, request: request)
        } catch {
            throw error.with(operationID: request.operationID, request: request)
        }
    }

    #if canImport(CourierHTTPClientTransport)
    /// ``execute(_:)`` on Courier's AsyncHTTPClient transport with no middleware between: a small
    /// body comes back as `Data` read whole, never wrapped in an `HTTPBody` to be read again.
    private func execute(_ request: RawRequest, _ step: TransportStep, on client: HTTPClientTransport) async throws(CourierError) -> Response {
        let limit = responseBodyLimit
        do {
            let (head, payload) = try await step.send(request.head, body: request.payload, baseURL: request.baseURL) { head, body, baseURL in
                let outgoing: HTTPClientTransport.OutgoingBody? =
                    switch body {
                    case .bytes(let data): .bytes(data)
                    case .stream(let stream): .stream(stream)
                    case nil: nil
                    }
                return try await client.sendReadingWhole(head, body: outgoing, baseURL: baseURL, limit: limit)
            }
            switch payload {
            case .whole(let data):
                return Response(head: head, body: data, request: request)
            case .stream(let body):
                return Response(head: head, body: try await collectResponseBody(body, limit: limit, status: head.status), request: request)
            }
        } catch let error as CourierError {
            throw error.with(operationID: request.operationID, request: request)
        } catch {
            throw PipelineErrors.classifyTransport(error).with(operationID: request.operationID, request: request)
        }
    }
    #endif

    /// Runs `request` through the chain and the transport and returns the response with its body
    /// unread.
    func executeStreaming(_ request: RawRequest) async throws(CourierError) -> (HTTPResponse, HTTPBody?) {
        do {
            if middlewares.isEmpty {
                // No chain to build: the transport step is called directly.
                return try await transportStep(for: request).send(request.head, body: request.payload, baseURL: request.baseURL, operationID: request.operationID)
            }
            return try await makeChain(for: request)(request.head, request.body, request.baseURL)
        } catch let error as CourierError {
            throw error.with(operationID: request.operationID, request: request)
        } catch {
            throw PipelineErrors.classifyTransport(error).with(operationID: request.operationID, request: request)
        }
    }

    /// The transport, bounded by `request`'s timeouts over the provider's, with Courier's
    /// redirect and cookie handling around each hop.
    func transportStep(for request: RawRequest) -> TransportStep {
        let base =
            request.timeouts.connect == nil && request.timeouts.idle == nil
            ? boundedTransport : Self.transport(transport, boundedBy: timeouts.overridden(by: request.timeouts), bodyLimit: responseBodyLimit)
        return TransportStep(base: base, redirects: redirects, cookieJar: cookieJar, secrets: request.secretHeaders)
    }
}

/// A streamed body whose failures are ``CourierError``s, as every other failure of a call is.
struct ClassifiedBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let base: HTTPBody
    let request: RawRequest

    static func wrap(_ body: HTTPBody, _ request: RawRequest) -> HTTPBody {
        HTTPBody(ClassifiedBody(base: body, request: request), length: body.length, iterationBehavior: body.iterationBehavior)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let request: RawRequest

        mutating func next() async throws -> ArraySlice<UInt8>? {
            do {
                return try await base.next()
            } catch let error as CourierError {
                throw error
            } catch {
                throw PipelineErrors.classifyTransport(error).with(operationID: request.operationID, request: request)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), request: request) }
}

/// The outcome of whichever finishes first — the work, its timer, or the caller's cancellation —
/// delivered once; the losers are cancelled.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<T, CourierError>, Never>?
        var tasks: [Task<Void, Never>] = []
        var outcome: Result<T, CourierError>?
    }

    private let state = Locked(State())

    /// Waits with `continuation`; resumes it at once when the race ended before it began (the
    /// caller was already cancelled).
    func start(_ continuation: CheckedContinuation<Result<T, CourierError>, Never>) {
        let ended: Result<T, CourierError>? = state.withLock { state in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        if let ended { continuation.resume(returning: ended) }
    }

    /// Keeps the two tasks to cancel; cancels them at once when the race is already over.
    func run(_ work: Task<Void, Never>, timer: Task<Void, Never>) {
        let over = state.withLock { state in
            state.tasks = [work, timer]
            return state.outcome != nil
        }
        if over { work.cancel(); timer.cancel() }
    }

    func finish(_ outcome: Result<T, CourierError>) {
        let (continuation, tasks): (CheckedContinuation<Result<T, CourierError>, Never>?, [Task<Void, Never>]) = state.withLock { state in
            guard state.outcome == nil else { return (nil, []) }
            state.outcome = outcome
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        guard let continuation else { return }
        for task in tasks { task.cancel() }
        continuation.resume(returning: outcome)
    }
}

/// The deadline of a request with a timeout passed.
struct TimeoutElapsed: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "no response within \(limit)" }
}
