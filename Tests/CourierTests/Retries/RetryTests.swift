@testable import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@API
@Retry(RetryPolicy(maxAttempts: 2, jitter: .none))
protocol Flaky {
    @GET("/script/:name")
    func fetch(name: String) async throws -> String

    @Retry(.disabled)
    @GET("/script/:name")
    func fetchOnce(name: String) async throws -> String
}

struct FlakyEndpoint: Endpoint {
    typealias Response = String
    var retryPolicy: RetryPolicy? { RetryPolicy(maxAttempts: 2, jitter: .none) }
    var name: String
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/script/\(name)") }
}

@Endpoint(.get, "/script/:name")
@Retry(RetryPolicy(maxAttempts: 2, jitter: .none))
struct FlakyMacroEndpoint {
    typealias Response = String
    @PathParameter var name: String
}

/// The continuous clock, counting the waits begun on it: a test waits for a retry's wait to begin.
final class CountingClock: Clock, Sendable {
    private let base = ContinuousClock()
    private let begun = Locked(0)

    var waitsBegun: Int { begun.withLock { $0 } }
    var now: ContinuousClock.Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        begun.withLock { $0 += 1 }
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}

/// Retries on both transports and in all three front-ends, against scripted failures on the fault
/// server, whose arrivals are counted; waits are checked on a recording clock.
@Suite("Retries: what is retried, how long Courier waits, and what it never does", .serialized, .timeLimit(.minutes(3)))
struct RetryTests {
    /// A provider on the fault server retrying as `policy` says, on a clock that records its waits.
    func provider(_ transport: TransportKind, _ policy: RetryPolicy = RetryPolicy(maxAttempts: 5, jitter: .none)) async throws -> (Provider, RecordingClock) {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        let clock = RecordingClock()
        provider.retryPolicy = policy
        provider.clock = clock
        return (provider, clock)
    }

    @Test("503 with Retry-After, 429, a reset and then 200: four arrivals, the waits the server and the backoff asked for", arguments: TransportKind.allCases)
    func scriptedSequence(transport: TransportKind) async throws {
        let name = scriptName("sequence", transport)
        FaultServer.script(name, [
            .answer(status: 503, headers: [("Retry-After", "2")]),
            .answer(status: 429),
            .reset,
            .answer(status: 200, body: "done"),
        ])
        let (provider, clock) = try await provider(transport)
        let text = try await provider.send(Request(.get, "/script/\(name)", receiving: .text))
        #expect(text == "done")
        #expect(FaultServer.arrivals(ofScript: name).count == 4)
        // Retry-After 2 s, then the backoff ceilings after attempts 2 and 3: 400 ms and 800 ms.
        let waits: [Duration] = [.seconds(2), .milliseconds(400), .milliseconds(800)]
        // A GET reset on a connection it reused, before any answer, is sent again at once on a
        // new one by the transport (libcurl does it itself, the AsyncHTTPClient transport since
        // it resends on stale connections): the reset reaches the retry policy only when the
        // connection was new.
        #expect(clock.waits == waits || clock.waits == Array(waits.prefix(2)))
    }

    @Test("A 500 is not retried by default; a predicate of the user's retries it", arguments: TransportKind.allCases)
    func serverErrorOnlyByPredicate(transport: TransportKind) async throws {
        let name = scriptName("500", transport)
        FaultServer.script(name, [.answer(status: 500), .answer(status: 200, body: "ok")])
        let (provider, _) = try await provider(transport)
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/script/\(name)", receiving: .text))
        }
        #expect(error?.kind == .status)
        #expect(error?.response?.statusCode == 500)
        #expect(error?.attempts.isEmpty == true)
        #expect(FaultServer.arrivals(ofScript: name).count == 1)

        let again = scriptName("500-predicate", transport)
        FaultServer.script(again, [.answer(status: 500), .answer(status: 200, body: "ok")])
        var policy = RetryPolicy(maxAttempts: 3, jitter: .none)
        policy.retryIf = { context in context.response?.status.code == 500 }
        let text = try await provider.send(Request(.get, "/script/\(again)", receiving: .text).retry(policy))
        #expect(text == "ok")
        #expect(FaultServer.arrivals(ofScript: again).count == 2)
    }

    @Test("Every attempt failing: the error carries each attempt's outcome and why it stopped", arguments: TransportKind.allCases)
    func attemptsExhausted(transport: TransportKind) async throws {
        let name = scriptName("exhausted", transport)
        FaultServer.script(name, [.answer(status: 503)])
        let (provider, clock) = try await provider(transport, RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(100), jitter: .none))
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/script/\(name)", receiving: .text))
        }
        #expect(error?.kind == .status)
        #expect(error?.attempts.count == 3)
        #expect(error?.attempts.map { $0.status?.code } == [503, 503, 503])
        #expect(error?.attempts.map(\.wait) == [.milliseconds(100), .milliseconds(200), nil])
        #expect(error?.retryStoppedBecause?.contains("allows 3 attempts") == true)
        #expect(error?.description.contains("after 3 attempts") == true)
        #expect(clock.waits == [.milliseconds(100), .milliseconds(200)])
        #expect(FaultServer.arrivals(ofScript: name).count == 3)
    }

    @Test("A POST that reached the server is not sent again; with an Idempotency-Key it is, with the same key", arguments: TransportKind.allCases)
    func postNotResent(transport: TransportKind) async throws {
        let name = scriptName("post", transport)
        FaultServer.script(name, [.reset, .answer(status: 200, body: "created")])
        let (provider, _) = try await provider(transport)
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.post, "/script/\(name)", receiving: .text).body(.text("order")))
        }
        #expect(error?.kind == .transport)
        #expect(error?.retryStoppedBecause?.contains("not idempotent") == true)
        #expect(FaultServer.arrivals(ofScript: name).count == 1)

        let keyed = scriptName("post-keyed", transport)
        FaultServer.script(keyed, [.reset, .answer(status: 200, body: "created")])
        var policy = RetryPolicy(maxAttempts: 3, jitter: .none)
        policy.addsIdempotencyKey = true
        let text = try await provider.send(Request(.post, "/script/\(keyed)", receiving: .text).body(.text("order")).retry(policy))
        #expect(text == "created")
        let arrivals = FaultServer.arrivals(ofScript: keyed)
        #expect(arrivals.count == 2)
        let keys = arrivals.map { $0.header("Idempotency-Key") }
        #expect(keys[0] != nil && keys[0] == keys[1])

        // A key of the caller's own makes a POST retryable too, and is kept.
        let own = scriptName("post-own-key", transport)
        FaultServer.script(own, [.answer(status: 503), .answer(status: 200, body: "created")])
        let ownText = try await provider.send(
            Request(.post, "/script/\(own)", receiving: .text).body(.text("order")).header(try #require(HTTPField.Name("Idempotency-Key")), "order-17")
        )
        #expect(ownText == "created")
        #expect(FaultServer.arrivals(ofScript: own).map { $0.header("Idempotency-Key") } == ["order-17", "order-17"])
    }

    @Test("A body that can be read only once is never sent again, and the error says why", arguments: TransportKind.allCases)
    func oneShotBody(transport: TransportKind) async throws {
        let name = scriptName("one-shot", transport)
        FaultServer.script(name, [.answer(status: 503), .answer(status: 200)])
        let (provider, clock) = try await provider(transport)
        let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
            continuation.yield(ArraySlice("chunk".utf8))
            continuation.finish()
        }
        var builder = RequestBuilder(method: .put, path: "/script/\(name)")
        builder.setBody(.stream(HTTPBody(stream, length: .known(5), iterationBehavior: .single)))
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(builder, receiving: .text))
        }
        #expect(error?.response?.statusCode == 503)
        #expect(error?.retryStoppedBecause?.contains("read only once") == true)
        #expect(FaultServer.arrivals(ofScript: name).count == 1)
        #expect(clock.waits.isEmpty)
    }

    @Test("Retry-After: an HTTP date is honoured, one past the policy's cap or the total deadline ends the retries at once", arguments: TransportKind.allCases)
    func retryAfterForms(transport: TransportKind) async throws {
        let (provider, clock) = try await provider(transport)
        let dated = scriptName("dated", transport)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        // 20 s ahead (waited on the recording clock, so at once): the wait is what is left of it
        // when the 503 is read, more than 10 s unless the first attempt took that long.
        FaultServer.script(dated, [.answer(status: 503, headers: [("Retry-After", formatter.string(from: Date().addingTimeInterval(20)))]), .answer(status: 200, body: "ok")])
        #expect(try await provider.send(Request(.get, "/script/\(dated)", receiving: .text)) == "ok")
        let wait = try #require(clock.waits.first)
        #expect(wait > .seconds(10) && wait <= .seconds(20), "\(wait)")

        let long = scriptName("long", transport)
        FaultServer.script(long, [.answer(status: 429, headers: [("Retry-After", "3600")]), .answer(status: 200)])
        let refused = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/script/\(long)", receiving: .text))
        }
        #expect(refused?.response?.statusCode == 429)
        #expect(refused?.retryStoppedBecause?.contains("maxRetryAfter") == true)
        #expect(FaultServer.arrivals(ofScript: long).count == 1)

        let late = scriptName("late", transport)
        // Under the policy's 30 s cap but past the 20 s total, which leaves the first attempt
        // all the time a slow machine needs.
        FaultServer.script(late, [.answer(status: 503, headers: [("Retry-After", "25")]), .answer(status: 200)])
        let outOfTime = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/script/\(late)", receiving: .text).timeout(.seconds(20)))
        }
        #expect(outOfTime?.response?.statusCode == 503)
        #expect(outOfTime?.retryStoppedBecause?.contains("total timeout") == true)
        #expect(FaultServer.arrivals(ofScript: late).count == 1)
        #expect(clock.waits.count == 1)
    }

    @Test("When the total timeout ends a sequence, its error carries the attempts made so far", arguments: TransportKind.allCases)
    func totalEndsSequence(transport: TransportKind) async throws {
        let name = scriptName("total-mid", transport)
        FaultServer.script(name, [.answer(status: 503, headers: [("Retry-After", "1")]), .stall])
        var provider = try await transport.faultProvider(idle: .seconds(30))
        provider.retryPolicy = RetryPolicy(maxAttempts: 3, jitter: .none)
        let configured = provider
        // The stall would last the provider's 30 s idle bound: only the 2 s total ends it before
        // the 25 s deadline, with room for a slow machine.
        let outcome = await fault(within: .seconds(25)) {
            _ = try await configured.send(Request(.get, "/script/\(name)", receiving: .text).timeout(.seconds(2)))
        }
        #expect(outcome.error?.kind == .timeout)
        #expect(outcome.error?.attempts.map { $0.status?.code } == [503])
        #expect(outcome.error?.attempts.first?.wait == .seconds(1))
        #expect(outcome.elapsed < .seconds(20))
        #expect(FaultServer.arrivals(ofScript: name).count == 2)
    }

    @Test("A Retry-After that is neither form is ignored: the backoff applies", arguments: TransportKind.allCases)
    func malformedRetryAfter(transport: TransportKind) async throws {
        let name = scriptName("bad-retry-after", transport)
        FaultServer.script(name, [.answer(status: 503, headers: [("Retry-After", "soon")]), .answer(status: 200, body: "ok")])
        let (provider, clock) = try await provider(transport)
        #expect(try await provider.send(Request(.get, "/script/\(name)", receiving: .text)) == "ok")
        #expect(clock.waits == [.milliseconds(200)])
    }

    @Test("Retry-After and header dates in the obsolete RFC 850 and asctime forms are read")
    func obsoleteDates() throws {
        let now = Date(timeIntervalSince1970: 784_111_770)  // Sun, 06 Nov 1994 08:49:30 GMT
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == .seconds(7))
        #expect(RetryAfter.parse("Sun Nov  6 08:49:37 1994", now: now) == .seconds(7))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(7))
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse("-1", now: now) == nil)
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:00 GMT", now: now) == .zero)
        // The same three forms as any header date.
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(Date(headerValue: "Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(Date(headerValue: "Sun Nov  6 08:49:37 1994") == expected)
    }

    @Test("The budget bounds what a server failing every request sees", arguments: TransportKind.allCases)
    func budget(transport: TransportKind) async throws {
        let requests = 40
        func arrivals(budget: RetryBudget?) async throws -> (Int, [String?]) {
            let name = scriptName("budget", transport)
            FaultServer.script(name, [.answer(status: 503)])
            var (provider, _) = try await provider(transport, RetryPolicy(maxAttempts: 3, jitter: .none))
            provider.retryBudget = budget
            var reasons: [String?] = []
            for _ in 0..<requests {
                do {
                    _ = try await provider.send(Request(.get, "/script/\(name)", receiving: .text))
                } catch {
                    reasons.append(error.retryStoppedBecause)
                }
            }
            return (FaultServer.arrivals(ofScript: name).count, reasons)
        }
        let (unbounded, _) = try await arrivals(budget: nil)
        #expect(unbounded == requests * 3)
        // A window far longer than the run, so that no slot leaves it however slow the run is.
        let (bounded, reasons) = try await arrivals(budget: RetryBudget(ratio: 0.1, minimum: 5, window: .seconds(3600)))
        // Each request deposits before it may withdraw: at most 5 + 10 % of 40 retries.
        #expect(bounded >= requests + 5 && bounded <= requests + 5 + 4, "\(bounded)")
        #expect(reasons.last??.contains("budget is spent") == true)
    }

    @Test("The default budget: a server failing every request sees about 1.2 requests per call, not 3", arguments: TransportKind.allCases)
    func defaultBudget(transport: TransportKind) async throws {
        let requests = 500
        let name = scriptName("default-budget", transport)
        FaultServer.script(name, [.answer(status: 503)])
        let (provider, _) = try await provider(transport, .standard)
        let started = ContinuousClock.now
        for _ in 0..<requests {
            _ = try? await provider.send(Request(.get, "/script/\(name)", receiving: .text))
        }
        let elapsed = ContinuousClock.now - started
        let arrivals = FaultServer.arrivals(ofScript: name).count
        // The budget counts the last 10 s in slots of 1 s, so a run shorter than 9 s is inside one
        // window: 20 % of 500 requests plus the floor of 10. A slower run (a loaded machine, a
        // sanitizer) gets the floor again in each further window, and a window may also count the
        // requests of the one before it: at most twice 20 %, still far from 3 per call.
        let ceiling = elapsed < .seconds(9)
            ? requests + 10 + requests / 5
            : requests + 10 * (Int((elapsed / .seconds(10)).rounded(.up)) + 1) + 2 * requests / 5
        #expect(arrivals >= requests + 10 && arrivals <= ceiling, "\(arrivals) arrivals in \(elapsed)")
        print("default budget, \(transport): \(arrivals) arrivals for \(requests) requests (\(Double(arrivals) / Double(requests)) per request)")
    }

    @Test("Cancelling the caller during a backoff wait ends the call at once", arguments: TransportKind.allCases)
    func cancelDuringBackoff(transport: TransportKind) async throws {
        let name = scriptName("cancel", transport)
        FaultServer.script(name, [.answer(status: 503, headers: [("Retry-After", "20")]), .answer(status: 200)])
        var provider = try await transport.faultProvider(idle: .seconds(5))
        provider.retryPolicy = RetryPolicy(maxAttempts: 3, jitter: .none)
        let clock = CountingClock()
        provider.clock = clock
        let configured = provider
        let task = Task { try await configured.send(Request(.get, "/script/\(name)", receiving: .text)) }
        // Cancel once the 20 s wait the 503 asked for has begun, however long the first attempt took.
        #expect(await eventually(within: .seconds(30)) { clock.waitsBegun == 1 }, "the backoff wait never began")
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.result
        #expect(ContinuousClock.now - cancelled < .seconds(5))
        #expect((result.failure as? CourierError)?.kind == .cancelled)
        #expect(FaultServer.arrivals(ofScript: name).count == 1)
    }

    @Test("A connection that could not be opened is retried for any method, POST included", arguments: TransportKind.allCases)
    func connectionRefused(transport: TransportKind) async throws {
        var provider = Provider(baseURL: "http://127.0.0.1:1", transport: transport.transport)
        provider.timeouts.connect = .milliseconds(500)
        provider.retryPolicy = RetryPolicy(maxAttempts: 2, jitter: .none)
        provider.clock = RecordingClock()
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.post, "/orders", receiving: .data).body(.text("order")))
        }
        #expect(error?.attempts.count == 2, "\(String(describing: error))")
        #expect(error?.retryStoppedBecause?.contains("allows 2 attempts") == true)
    }

    @Test("Interceptors see the attempt number", arguments: TransportKind.allCases)
    func attemptVisible(transport: TransportKind) async throws {
        let name = scriptName("attempt", transport)
        FaultServer.script(name, [.answer(status: 502), .answer(status: 504), .answer(status: 200, body: "ok")])
        let seen = Locked<[Int]>([])
        let (base, _) = try await provider(transport)
        let provider = base.intercept { request, next in
            seen.withLock { $0.append(request.attempt) }
            return try await next(request)
        }
        #expect(try await provider.send(Request(.get, "/script/\(name)", receiving: .text)) == "ok")
        #expect(seen.withLock { $0 } == [1, 2, 3])
    }

    @Test("Each front-end overrides the provider's policy: @API, Endpoint, @Endpoint, fluent", arguments: TransportKind.allCases)
    func frontEnds(transport: TransportKind) async throws {
        // The provider never retries; each request's own policy does.
        var (provider, _) = try await provider(transport, .disabled)
        provider.clock = RecordingClock()
        let configured = provider
        let api = FlakyAPI(provider: configured)
        let calls: [(String, @Sendable (String) async throws -> String)] = [
            ("@API", { try await api.fetch(name: $0) }),
            ("Endpoint", { try await configured.send(FlakyEndpoint(name: $0)) }),
            ("@Endpoint", { try await configured.send(FlakyMacroEndpoint(name: $0)) }),
            ("fluent", { try await configured.send(Request(.get, "/script/\($0)", receiving: .text).retry(RetryPolicy(maxAttempts: 2, jitter: .none))) }),
        ]
        for (label, call) in calls {
            let name = scriptName("front-end", transport)
            FaultServer.script(name, [.answer(status: 503), .answer(status: 200, body: label)])
            #expect(try await call(name) == label)
            #expect(FaultServer.arrivals(ofScript: name).count == 2, "\(label)")
        }
        // A function's policy replaces the protocol's.
        let once = scriptName("front-end-once", transport)
        FaultServer.script(once, [.answer(status: 503), .answer(status: 200)])
        await #expect(throws: CourierError.self) { try await api.fetchOnce(name: once) }
        #expect(FaultServer.arrivals(ofScript: once).count == 1)
        // And a provider's policy applies to a request that has none.
        let inherited = scriptName("front-end-provider", transport)
        FaultServer.script(inherited, [.answer(status: 503), .answer(status: 200, body: "ok")])
        var retrying = configured
        retrying.retryPolicy = RetryPolicy(maxAttempts: 2, jitter: .none)
        #expect(try await retrying.send(Request(.get, "/script/\(inherited)", receiving: .text)) == "ok")
        #expect(FaultServer.arrivals(ofScript: inherited).count == 2)
    }

    @Test("A streamed response is retried on its status before any of it is handed over", arguments: TransportKind.allCases)
    func streamedRetry(transport: TransportKind) async throws {
        let name = scriptName("stream", transport)
        FaultServer.script(name, [.answer(status: 503, body: "busy"), .answer(status: 200, body: "streamed")])
        let (provider, _) = try await provider(transport)
        let response = try await provider.send(Request(.get, "/script/\(name)", receiving: .stream))
        let body = try await response.collect(upTo: 1024)
        #expect(String(decoding: body, as: UTF8.self) == "streamed")
        #expect(FaultServer.arrivals(ofScript: name).count == 2)
    }

    @Test("Backoff: full jitter stays under a ceiling that doubles up to the cap")
    func backoffCeilings() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        #expect((1...6).map(policy.ceiling(after:)) == [100, 200, 400, 800, 1000, 1000].map { Duration.milliseconds($0) })
        #expect(RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(60)).ceiling(after: 200) == .seconds(60))
        for attempt in 1...8 {
            let ceiling = policy.ceiling(after: attempt)
            for _ in 0..<50 {
                let wait = policy.jitter.draw(ceiling)
                #expect(wait >= .zero && wait <= ceiling)
            }
        }
        let waits = (0..<200).map { _ in RetryPolicy.Jitter.full.draw(.seconds(1)) }
        #expect(Set(waits).count > 100, "full jitter draws different waits")
    }
}
