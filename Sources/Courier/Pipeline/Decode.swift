import CourierWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// The validate and decode stages: the reply the attempts ended with, checked by the
    /// validators, then made into the request's value — decoded from the body read whole, or,
    /// for a streamed response, wrapped around the body still arriving. This is the one point
    /// where a streamed response and a buffered one part. Inlined into ``send(_:)``: one call
    /// frame fewer per request.
    @inline(__always)
    nonisolated(nonsending) func decode<Value>(_ attempted: (Reply, RetryRecord), of call: Call, for request: Request<Value>) async throws(CourierError) -> Value {
        switch request.decoder.read {
        case .buffered(let decode):
            return try decodeWhole(attempted, call, decode)
        case .streamed(let wrap):
            return try await streamed(attempted, call, request, wrap)
        }
    }

    /// A reply read whole, validated and decoded. Synchronous and out of line: what it makes
    /// lives on the thread's stack, not in the frame of the async function that calls it.
    @inline(never)
    private func decodeWhole<Value>(_ attempted: (Reply, RetryRecord), _ call: Call, _ decode: @Sendable (Response, any BodyDecoder) throws(CourierError) -> Value) throws(CourierError) -> Value {
        let (reply, record) = attempted
        let response = Response(received: reply.head, body: reply.data, request: reply.request, cache: reply.cache)
        call.observer?.responded(response.received.status, bodyBytes: response.body?.count, cache: response.cacheOutcome)
        do {
            try validate(response, call.validators)
            return try decode(response, call.bodyDecoder)
        } catch {
            throw record.attach(error.with(operationID: response.request?.operationID, request: response.request))
        }
    }

    /// A streamed reply handed over, with what a typed stream needs to reconnect, as the
    /// request's value. Out of line, the streamed response made here included: the frame of a
    /// call read whole holds none of it.
    @inline(never)
    private nonisolated(nonsending) func streamed<Value>(
        _ attempted: (Reply, RetryRecord), _ call: Call, _ request: Request<Value>, _ wrap: (StreamedResponse) -> Value
    ) async throws(CourierError) -> Value {
        let (reply, record) = attempted
        call.observer?.responded(reply.head.status, bodyBytes: nil)
        return wrap(try await handOver(reply, record, call, streamContext: request.decoder.usesStreamContext ? streamContext(for: request, call) : nil))
    }

    /// A streamed reply as the caller gets it: validated on its head, its body unread — or, for a
    /// status outside 200–299, an error carrying the start of the body.
    private nonisolated(nonsending) func handOver(_ reply: Reply, _ record: RetryRecord, _ call: Call, streamContext: StreamContext?) async throws(CourierError) -> StreamedResponse {
        let (head, request) = (reply.head, reply.request)
        let body = reply.body.httpBody
        do {
            try validate(Response(received: head, body: nil, request: request, cache: nil), call.validators)
        } catch {
            throw record.attach(error)
        }
        guard head.status.kind == .successful else {
            // The error carries the start of the body — at most 64 KiB, read within the total
            // bound (10 s without one) — and the rest is never read.
            let prefix = try? await within(call.total ?? .seconds(10), request) { () async throws(CourierError) in
                await collectPrefix(of: body, upTo: 64 * 1024)
            }
            let response = Response(received: head, body: prefix, request: request, cache: nil)
            throw record.attach(CourierError(.status(head.status), operationID: request.operationID, request: request, response: response))
        }
        var delivered = ClassifiedBody.wrap(body ?? HTTPBody(), request)
        if let observer = call.observer { delivered = observer.countingResponse(delivered) }
        var streamed = StreamedResponse(head: head.message, body: call.downloadProgress?.counting(delivered) ?? delivered, request: request)
        streamed.context = streamContext
        return streamed
    }

    /// What a typed stream of `request`'s response needs from the pipeline: the call's body
    /// decoder and limits, and a way to send the same request again — the whole pipeline,
    /// modifiers, authentication, hooks and validation included — with extra header fields
    /// (`Last-Event-ID`). The request sent again carries a context of its own, so a stream
    /// reconnects as often as its budget allows, each time read as the first connection was.
    private func streamContext<Value>(for request: Request<Value>, _ call: Call) -> StreamContext {
        let again = request.receiving(ResponseDecoder<StreamedResponse>.stream.withStreamContext())
        return StreamContext(
            bodyDecoder: call.bodyDecoder,
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
