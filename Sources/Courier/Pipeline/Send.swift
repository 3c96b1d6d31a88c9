import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// Sends `request` and returns its value: the one way any request is sent.
    ///
    /// The stages, in order (`OnePath.md` draws them): **prepare** — the request's
    /// authentication, the provider's modifiers, encoding, the request's own hooks; **attempts**
    /// — as many as the ``RetryPolicy`` and the provider's ``Authenticator`` allow, all within
    /// the ``Timeouts/total`` bound; each attempt an **exchange** — the middleware chain, then
    /// the transport, following redirects and keeping cookies hop by hop; **validate** — the
    /// provider's validators, then the request's; **decode** — the response decoder, or, for a
    /// streamed response, the body handed over unread. Every failure is a ``CourierError``
    /// naming the stage.
    ///
    /// The provider's ``Observability`` sees the request from the start: its span covers the
    /// attempts and the decoding, and is the current one while they run.
    public func send<Value>(_ request: Request<Value>) async throws(CourierError) -> Value {
        if let observer = RequestObserver.start(observability) { return try await sendObserved(request, by: observer) }
        do throws(CourierError) {
            let call = try prepare(request)
            let value = try await decode(cached(call), of: call, for: request)
            request.builder.endProgress(streaming: call.streams)
            return value
        } catch {
            request.builder.endProgress(streaming: false)
            throw error
        }
    }

    /// ``send(_:)`` for a provider that something listens to. A function of its own, so that
    /// the frame of every other request holds none of what the observed path keeps.
    @inline(never)
    private nonisolated(nonsending) func sendObserved<Value>(_ request: Request<Value>, by observer: RequestObserver) async throws(CourierError) -> Value {
        do throws(CourierError) {
            var call: Call
            do {
                call = try prepare(request)
            } catch {
                observer.describeUnsent(request.builder, baseURL: baseURL, operationID: request.operationID)
                throw error
            }
            observer.begin(&call, base: baseParts)
            let value = try await observer.reportingResends { () async throws(CourierError) in
                try await RequestObserver.within(observer.span) { () async throws(CourierError) in
                    try await self.decode(self.cached(call), of: call, for: request)
                }
            }
            observer.end()
            request.builder.endProgress(streaming: call.streams)
            return value
        } catch {
            observer.end(error)
            request.builder.endProgress(streaming: false)
            throw error
        }
    }
}
