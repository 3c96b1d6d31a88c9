@testable import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import MetricsTestKit
import Testing

@API
protocol CachedShelf {
    @GET("/script/:name")
    func plain(name: String) async throws -> String

    @Cache(.reload)
    @GET("/script/:name")
    func reloaded(name: String) async throws -> String
}

struct OnlyIfCachedEndpoint: Endpoint {
    typealias Response = String
    var name: String
    var cachePolicy: CachePolicy? { .onlyIfCached }
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/script/\(name)") }
}

@Endpoint(.get, "/script/:name")
@Cache(.returnCacheElseLoad)
struct CacheElseLoadEndpoint {
    typealias Response = String
    @PathParameter var name: String
}

/// The wall clock a test's cache reads, moved on by hand.
final class ManualClock: Sendable {
    private let instant = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { instant.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { instant.withLock { $0 += seconds } }
}

/// The HTTP cache against the fault server, on both transports, counting what reaches the server:
/// freshness, validation, `Vary`, the directives of requests and responses, invalidation, the
/// stale responses RFC 5861 allows, bounds, and each front-end's policy.
@Suite("The HTTP cache: RFC 9111 on both transports and in all three front-ends", .timeLimit(.minutes(2)))
struct CacheTests {
    let clock = ManualClock()

    func provider(_ transport: TransportKind, byteLimit: Int = 1 << 20) async throws -> Provider {
        var provider = try await transport.faultProvider(idle: .seconds(10))
        let clock = clock
        provider.cache = HTTPCache(byteLimit: byteLimit, heuristicCap: .seconds(24 * 60 * 60), now: { clock.now })
        return provider
    }

    func fetch(_ provider: Provider, _ name: String, _ headers: KeyValuePairs<HTTPField.Name, String> = [:], policy: CachePolicy? = nil) async throws -> (String, Response) {
        var request = Request(.get, "/script/\(name)", receiving: .withResponse(.text)).headers(headers)
        if let policy { request = request.cache(policy) }
        return try await provider.send(request)
    }

    static func ok(_ body: String, _ headers: [(String, String)]) -> ScriptStep {
        .answer(status: 200, headers: headers + [("Content-Type", "text/plain")], body: body)
    }

    @Test("A fresh response is answered from the cache with its age; a stale one without validators is loaded again", arguments: TransportKind.allCases)
    func freshness(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let name = scriptName("cache-fresh", transport)
        FaultServer.script(name, [Self.ok("one", [("Cache-Control", "max-age=60")]), Self.ok("two", [("Cache-Control", "max-age=60")])])
        let (first, firstResponse) = try await fetch(provider, name)
        #expect(first == "one" && firstResponse.cache == .miss)
        clock.advance(10)
        let (second, secondResponse) = try await fetch(provider, name)
        #expect(second == "one")
        #expect(secondResponse.cache == .hit(age: .seconds(10)))
        #expect(secondResponse.headers[.age] == "10")
        #expect(FaultServer.arrivals(ofScript: name).count == 1)
        clock.advance(60)
        let (third, thirdResponse) = try await fetch(provider, name)
        #expect(third == "two" && thirdResponse.cache == .miss)
        #expect(FaultServer.arrivals(ofScript: name).count == 2)
    }

    @Test("Expires and Date give freshness; an Expires that does not read is already stale", arguments: TransportKind.allCases)
    func expires(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let name = scriptName("cache-expires", transport)
        FaultServer.script(name, [Self.ok("one", [("Date", "Fri, 15 Jan 2027 08:00:00 GMT"), ("Expires", "Fri, 15 Jan 2027 08:01:00 GMT")])])
        _ = try await fetch(provider, name)
        clock.advance(30)
        #expect(try await fetch(provider, name).1.cache == .hit(age: .seconds(30)))
        clock.advance(31)
        #expect(try await fetch(provider, name).1.cache == .miss)

        let broken = scriptName("cache-expires-broken", transport)
        FaultServer.script(broken, [Self.ok("one", [("Expires", "0")])])
        _ = try await fetch(provider, broken)
        #expect(try await fetch(provider, broken).1.cache == .miss)
        #expect(FaultServer.arrivals(ofScript: broken).count == 2)
    }

    @Test("A stale response is revalidated with If-None-Match; a 304 updates its header fields and returns its body", arguments: TransportKind.allCases)
    func revalidationByETag(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let name = scriptName("cache-etag", transport)
        FaultServer.script(name) { arrival in
            arrival.header("If-None-Match") == "\"v1\""
                ? .answer(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60"), ("X-Version", "2")])
                : Self.ok("body", [("ETag", "\"v1\""), ("Cache-Control", "max-age=0"), ("X-Version", "1")])
        }
        _ = try await fetch(provider, name)
        let (body, response) = try await fetch(provider, name)
        #expect(body == "body")
        #expect(response.cache == .revalidated)
        #expect(response.status.code == 200)
        #expect(response.headers[HTTPField.Name("X-Version")!] == "2")
        #expect(FaultServer.arrivals(ofScript: name).map { $0.header("If-None-Match") } == [nil, "\"v1\""])
        // The 304 made it fresh for a minute.
        #expect(try await fetch(provider, name).1.cache == .hit(age: .zero))
        #expect(FaultServer.arrivals(ofScript: name).count == 2)
    }

    @Test("Last-Modified gives heuristic freshness, a tenth of its age and at most the cap, and If-Modified-Since", arguments: TransportKind.allCases)
    func heuristicAndLastModified(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let name = scriptName("cache-modified", transport)
        let modified = "Mon, 01 Jan 2024 00:00:00 GMT"
        FaultServer.script(name) { arrival in
            arrival.header("If-Modified-Since") == modified ? .answer(status: 304, headers: []) : Self.ok("page", [("Last-Modified", modified)])
        }
        _ = try await fetch(provider, name)
        clock.advance(60 * 60)
        #expect(try await fetch(provider, name).1.cache == .hit(age: .seconds(3600)))
        // Years old, so a tenth of that is far beyond the one-day cap: stale after a day.
        clock.advance(24 * 60 * 60)
        #expect(try await fetch(provider, name).1.cache == .revalidated)
        #expect(FaultServer.arrivals(ofScript: name).map { $0.header("If-Modified-Since") } == [nil, modified])

        // A status that is not cacheable by default gets no heuristic freshness.
        let created = scriptName("cache-201", transport)
        FaultServer.script(created, [.answer(status: 201, headers: [("Last-Modified", modified)], body: "x")])
        _ = try await fetch(provider, created)
        _ = try await fetch(provider, created)
        #expect(FaultServer.arrivals(ofScript: created).count == 2)
    }

    @Test("no-store is never kept; no-cache is kept but always revalidated", arguments: TransportKind.allCases)
    func noStoreAndNoCache(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let unstored = scriptName("cache-no-store", transport)
        FaultServer.script(unstored, [Self.ok("x", [("Cache-Control", "no-store, max-age=60")])])
        _ = try await fetch(provider, unstored)
        #expect(try await fetch(provider, unstored).1.cache == .miss)
        #expect(FaultServer.arrivals(ofScript: unstored).count == 2)

        let checked = scriptName("cache-no-cache", transport)
        FaultServer.script(checked) { arrival in
            arrival.header("If-None-Match") == "\"a\"" ? .answer(status: 304, headers: []) : Self.ok("x", [("Cache-Control", "no-cache, max-age=60"), ("ETag", "\"a\"")])
        }
        _ = try await fetch(provider, checked)
        #expect(try await fetch(provider, checked).1.cache == .revalidated)
        #expect(FaultServer.arrivals(ofScript: checked).count == 2)
    }

    @Test("Vary: a stored response answers only requests with the same values of the fields it names", arguments: TransportKind.allCases)
    func vary(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let name = scriptName("cache-vary", transport)
        FaultServer.script(name) { arrival in
            Self.ok(arrival.header("Accept-Language") ?? "none", [("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")])
        }
        #expect(try await fetch(provider, name, [.acceptLanguage: "en"]).0 == "en")
        #expect(try await fetch(provider, name, [.acceptLanguage: "en"]).1.cache == .hit(age: .zero))
        #expect(try await fetch(provider, name, [.acceptLanguage: "fr"]).0 == "fr")
        #expect(try await fetch(provider, name, [.acceptLanguage: "fr"]).1.cache == .hit(age: .zero))
        #expect(try await fetch(provider, name, [.acceptLanguage: "en"]).0 == "en")
        #expect(FaultServer.arrivals(ofScript: name).count == 2)

        let star = scriptName("cache-vary-star", transport)
        FaultServer.script(star, [Self.ok("x", [("Cache-Control", "max-age=60"), ("Vary", "*")])])
        _ = try await fetch(provider, star)
        _ = try await fetch(provider, star)
        #expect(FaultServer.arrivals(ofScript: star).count == 2)
    }

    @Test("A request's max-age, min-fresh, max-stale, no-cache, no-store and only-if-cached", arguments: TransportKind.allCases)
    func requestDirectives(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let name = scriptName("cache-asked", transport)
        FaultServer.script(name) { arrival in Self.ok("n\(arrival.number)", [("Cache-Control", "max-age=60")]) }
        _ = try await fetch(provider, name)
        clock.advance(30)
        #expect(try await fetch(provider, name, [.cacheControl: "max-age=10"]).0 == "n2")
        clock.advance(30)
        #expect(try await fetch(provider, name, [.cacheControl: "min-fresh=40"]).0 == "n3")
        clock.advance(90)
        let (stale, staleResponse) = try await fetch(provider, name, [.cacheControl: "max-stale=60"])
        #expect(stale == "n3" && staleResponse.cache == .stale(age: .seconds(90)))
        #expect(try await fetch(provider, name, [.cacheControl: "max-stale=10"]).0 == "n4")
        #expect(try await fetch(provider, name, [.cacheControl: "no-cache"]).0 == "n5")
        #expect(try await fetch(provider, name, [.cacheControl: "only-if-cached"]).0 == "n5")
        #expect(try await fetch(provider, name, [.pragma: "no-cache"]).0 == "n6")
        #expect(try await fetch(provider, name, [.cacheControl: "no-store, no-cache"]).0 == "n7")
        // no-store kept n7 out of the cache: n6 is what is stored.
        #expect(try await fetch(provider, name).0 == "n6")
        #expect(FaultServer.arrivals(ofScript: name).count == 7)
    }

    @Test("Policies in all three front-ends: only if cached, cache else load, reload")
    func policiesInEveryFrontEnd() async throws {
        let provider = try await provider(.asyncHTTPClient)
        let name = scriptName("cache-policy", .asyncHTTPClient)
        FaultServer.script(name) { arrival in Self.ok("n\(arrival.number)", [("Cache-Control", "max-age=60")]) }
        // Nothing stored: only-if-cached is a 504 made by the cache, and nothing is sent.
        let missing = await #expect(throws: CourierError.self) { try await provider.send(OnlyIfCachedEndpoint(name: name)) }
        #expect(missing?.kind == .status && missing?.response?.statusCode == 504)
        #expect(missing?.response?.cache == .unavailable)
        #expect(FaultServer.arrivals(ofScript: name).isEmpty)

        #expect(try await provider.send(CacheElseLoadEndpoint(name: name)) == "n1")
        clock.advance(600)
        // Stale, but these policies take what is stored.
        #expect(try await provider.send(CacheElseLoadEndpoint(name: name)) == "n1")
        #expect(try await provider.send(OnlyIfCachedEndpoint(name: name)) == "n1")
        #expect(try await fetch(provider, name, policy: .returnCacheElseLoad).1.cache == .stale(age: .seconds(600)))
        let api = CachedShelfAPI(provider: provider)
        #expect(try await api.reloaded(name: name) == "n2")
        #expect(try await api.plain(name: name) == "n2")
        #expect(try await fetch(provider, name, policy: .reload).0 == "n3")
        #expect(FaultServer.arrivals(ofScript: name).count == 3)
    }

    @Test("A successful unsafe request removes its target, Location and Content-Location", arguments: TransportKind.allCases)
    func invalidation(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let name = scriptName("cache-unsafe", transport)
        let other = scriptName("cache-unsafe-other", transport)
        FaultServer.script(other) { arrival in Self.ok("o\(arrival.number)", [("Cache-Control", "max-age=60")]) }
        FaultServer.script(name) { arrival in
            arrival.method == "POST"
                ? .answer(status: 201, headers: [("Location", "/script/\(other)")])
                : Self.ok("g\(arrival.number)", [("Cache-Control", "max-age=60")])
        }
        _ = try await fetch(provider, name)
        _ = try await fetch(provider, other)
        #expect(try await fetch(provider, name).1.cache == .hit(age: .zero))
        _ = try await provider.send(Request(.post, "/script/\(name)", receiving: .none).body(.text("new")))
        #expect(try await fetch(provider, name).0 == "g3")
        #expect(try await fetch(provider, other).0 == "o2")
    }

    @Test("A response to a request with Authorization is kept only when public or must-revalidate allow it", arguments: TransportKind.allCases)
    func authorization(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let privateName = scriptName("cache-auth", transport)
        FaultServer.script(privateName) { arrival in Self.ok("p\(arrival.number)", [("Cache-Control", "max-age=60")]) }
        _ = try await fetch(provider, privateName, [.authorization: "Bearer t"])
        #expect(try await fetch(provider, privateName, [.authorization: "Bearer t"]).0 == "p2")
        let publicName = scriptName("cache-auth-public", transport)
        FaultServer.script(publicName) { arrival in Self.ok("q\(arrival.number)", [("Cache-Control", "public, max-age=60")]) }
        _ = try await fetch(provider, publicName, [.authorization: "Bearer t"])
        #expect(try await fetch(provider, publicName, [.authorization: "Bearer t"]).0 == "q1")
    }

    @Test("stale-if-error answers a 5xx or a failed exchange with the stale response, unless must-revalidate", arguments: TransportKind.allCases)
    func staleIfError(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let name = scriptName("cache-sie", transport)
        FaultServer.script(name, [Self.ok("kept", [("Cache-Control", "max-age=1, stale-if-error=60")]), .answer(status: 503), .reset])
        _ = try await fetch(provider, name)
        clock.advance(5)
        let (body, response) = try await fetch(provider, name)
        #expect(body == "kept" && response.cache == .stale(age: .seconds(5)))
        #expect(try await fetch(provider, name).0 == "kept")
        // URLSession on Linux sends a GET once more when a reused connection is reset.
        #expect(FaultServer.arrivals(ofScript: name).count >= 3)
        clock.advance(100)
        let late = await #expect(throws: CourierError.self) { try await fetch(provider, name) }
        #expect(late?.kind == .transport)

        let strict = scriptName("cache-sie-strict", transport)
        FaultServer.script(strict, [Self.ok("kept", [("Cache-Control", "max-age=1, stale-if-error=60, must-revalidate")]), .answer(status: 503)])
        _ = try await fetch(provider, strict)
        clock.advance(5)
        let refused = await #expect(throws: CourierError.self) { try await fetch(provider, strict) }
        #expect(refused?.response?.statusCode == 503)
    }

    @Test("stale-while-revalidate returns the stale response at once and revalidates it once in the background", arguments: TransportKind.allCases)
    func staleWhileRevalidate(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let name = scriptName("cache-swr", transport)
        FaultServer.script(name) { arrival in
            arrival.header("If-None-Match") == "\"s\""
                ? .after(.milliseconds(200), .answer(status: 304, headers: [("Cache-Control", "max-age=60")]))
                : Self.ok("swr", [("Cache-Control", "max-age=1, stale-while-revalidate=30"), ("ETag", "\"s\"")])
        }
        _ = try await fetch(provider, name)
        clock.advance(5)
        let (body, response) = try await fetch(provider, name)
        #expect(body == "swr" && response.cache == .stale(age: .seconds(5)))
        // A second request while the revalidation runs starts no other.
        #expect(try await fetch(provider, name).1.cache == .stale(age: .seconds(5)))
        // Once the background revalidation's 304 is stored, the response is fresh again.
        var outcome = try await fetch(provider, name).1.cache
        // Generous: under ThreadSanitizer, beside the rest of the suite, the 304 can take seconds.
        let deadline = ContinuousClock.now + .seconds(40)
        while outcome != .hit(age: .zero), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            outcome = try await fetch(provider, name).1.cache
        }
        #expect(outcome == .hit(age: .zero))
        #expect(FaultServer.arrivals(ofScript: name).map { $0.header("If-None-Match") } == [nil, "\"s\""])
    }

    @Test("Bounded: a response over a quarter of the limit is not kept, and the least recently used go first")
    func bounds() async throws {
        let provider = try await provider(.asyncHTTPClient, byteLimit: 4000)
        let cache = try #require(provider.cache)
        let big = scriptName("cache-big", .asyncHTTPClient)
        FaultServer.script(big, [Self.ok(String(repeating: "x", count: 1500), [("Cache-Control", "max-age=60")])])
        _ = try await fetch(provider, big)
        #expect(try await fetch(provider, big).1.cache == .miss)
        var names: [String] = []
        for index in 0..<8 {
            let name = scriptName("cache-small-\(index)", .asyncHTTPClient)
            FaultServer.script(name, [Self.ok(String(repeating: "y", count: 500), [("Cache-Control", "max-age=60")])])
            names.append(name)
            _ = try await fetch(provider, name)
            // The first stays in use, so it is never the least recently used.
            _ = try await fetch(provider, names[0])
            #expect(cache.usage.bytes <= 4000)
        }
        #expect(try await fetch(provider, names[0]).1.cache == .hit(age: .zero))
        #expect(try await fetch(provider, names[1]).1.cache == .miss)
        #expect(try await fetch(provider, names[7]).1.cache == .hit(age: .zero))
    }

    @Test(
        "After a redirect, the response is stored under the target that produced it, never under the URL first asked for; in every front-end",
        arguments: TransportKind.allCases
    )
    func redirectKeys(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let api = CachedShelfAPI(provider: provider)
        let calls: [(String, @Sendable (String) async throws -> String)] = [
            ("@API", { try await api.plain(name: $0) }),
            ("Endpoint", { try await provider.send(GuardedEndpoint(name: $0)) }),
            ("@Endpoint", { try await provider.send(GuardedMacroEndpoint(name: $0)) }),
            ("fluent", { try await provider.send(Request(.get, "/script/\($0)", receiving: .text)) }),
        ]
        for (label, call) in calls {
            let origin = scriptName("cache-redirect-from", transport)
            let target = scriptName("cache-redirect-to", transport)
            FaultServer.script(origin, answer: { _ in
                .answer(status: 302, headers: [("Location", "/script/\(target)"), ("Cache-Control", "no-store")])
            })
            FaultServer.script(target, answer: { arrival in Self.ok("target \(arrival.number)", [("Cache-Control", "max-age=60")]) })
            #expect(try await call(origin) == "target 1", "\(label)")
            // Asked again, the original URL goes to the server: nothing is stored under it.
            #expect(try await call(origin) == "target 2", "\(label)")
            #expect(FaultServer.arrivals(ofScript: origin).count == 2, "\(label)")
            // The target itself is answered from the cache, with what the last hop to it got.
            let (direct, response) = try await fetch(provider, target)
            #expect(direct == "target 2" && response.cache == .hit(age: .zero), "\(label): \(direct), \(String(describing: response.cache))")
            #expect(FaultServer.arrivals(ofScript: target).count == 2, "\(label)")
        }
    }

    @Test("Streams, other methods and the caller's own conditional requests pass the cache by")
    func passesBy() async throws {
        let provider = try await provider(.asyncHTTPClient)
        let name = scriptName("cache-stream", .asyncHTTPClient)
        FaultServer.script(name, [.stream(contentType: "text/plain", chunks: ["a", "b"])])
        for _ in 0..<2 {
            let streamed = try await provider.send(Request(.get, "/script/\(name)", receiving: .stream))
            var bytes = 0
            for try await chunk in streamed.body { bytes += chunk.count }
            #expect(bytes == 2)
        }
        #expect(FaultServer.arrivals(ofScript: name).count == 2)
        let conditional = scriptName("cache-conditional", .asyncHTTPClient)
        FaultServer.script(conditional, [Self.ok("x", [("Cache-Control", "max-age=60"), ("ETag", "\"c\"")])])
        _ = try await fetch(provider, conditional)
        let (_, response) = try await fetch(provider, conditional, [.ifNoneMatch: "\"other\""])
        #expect(response.cache == nil)
        #expect(FaultServer.arrivals(ofScript: conditional).count == 2)
    }

    @Test("Spans, metrics and logs say where each response came from", arguments: TransportKind.allCases)
    func observed(transport: TransportKind) async throws {
        var provider = try await provider(transport)
        let tracer = TraceparentTracer()
        let metrics = TestMetrics()
        provider.observability = Observability(tracer: tracer, metricsFactory: metrics)
        let name = scriptName("cache-observed", transport)
        FaultServer.script(name, [Self.ok("x", [("Cache-Control", "max-age=60")])])
        _ = try await fetch(provider, name)
        _ = try await fetch(provider, name)
        let spans = tracer.finishedSpans.filter { $0.text("url.full")?.hasSuffix(name) == true }
        #expect(spans.map { $0.text("courier.cache.outcome") } == ["miss", "hit"])
        let counted = ["miss", "hit", "stale"].map { outcome in
            metrics.counters.filter { counter in
                counter.label == "courier.client.cache" && counter.dimensions.contains { $0 == ("courier.cache.outcome", outcome) }
            }.reduce(0) { $0 + $1.totalValue }
        }
        #expect(counted == [1, 1, 0])
    }

    @Test("Many tasks reading and writing one key each see a whole response")
    func concurrency() async throws {
        let provider = try await provider(.asyncHTTPClient)
        let name = scriptName("cache-concurrent", .asyncHTTPClient)
        let body = String(repeating: "z", count: 20_000)
        FaultServer.script(name) { _ in Self.ok(body, [("Cache-Control", "max-age=60")]) }
        try await withThrowingTaskGroup { group in
            for index in 0..<40 {
                group.addTask {
                    let (text, _) = try await fetch(provider, name, policy: index % 4 == 0 ? .reload : nil)
                    #expect(text == body)
                }
            }
            try await group.waitForAll()
        }
        #expect(try await fetch(provider, name).1.cache == .hit(age: .zero))
    }
}
