@testable import Courier
import CourierWire
import Foundation
import HTTPTypes
import Testing

/// The cache's decisions alone, without a server or a store: what is stored, what the request
/// asks and the time in, what to do out (the stage that acts on them is tested against servers
/// in `CacheTests` and `CacheConformanceTests`).
@Suite("The cache's decisions, apart from the stage that acts on them")
struct CacheStrategyTests {
    static let received = Date(timeIntervalSince1970: 1_800_000_000)

    /// A response stored when it was received, with `headers`.
    func stored(_ headers: [(String, String)]) -> CachedResponse {
        var fields = HTTPFields()
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        let head = HTTPResponse(status: .ok, headerFields: fields)
        return CachedResponse(key: "https://api.test/a", head: head, body: Data("a".utf8), varyValues: [:], requestTime: Self.received, responseTime: Self.received)
    }

    func lookup(_ stored: CachedResponse?, asked: [(String, String)] = [], policy: CachePolicy = .useProtocol, after seconds: TimeInterval) -> String {
        var fields = HTTPFields()
        for (name, value) in asked { fields[HTTPField.Name(name)!] = value }
        let decision = CacheStrategy.lookup(
            stored: stored, asked: CacheControl(fields), policy: policy, now: Self.received.addingTimeInterval(seconds), heuristicCap: .seconds(86_400))
        switch decision {
        case .answer(_, let age, let outcome):
            if case .hit = outcome { return "answer fresh at \(Int(age))" }
            return "answer stale at \(Int(age))"
        case .answerWhileRevalidating(_, let age): return "answer at \(Int(age)) and revalidate"
        case .send(let revalidating): return revalidating == nil ? "send" : "revalidate"
        case .unavailable: return "504"
        }
    }

    @Test("Fresh is answered, stale is revalidated, nothing stored is sent")
    func freshness() {
        let entry = stored([("Cache-Control", "max-age=60"), ("ETag", "\"1\"")])
        #expect(lookup(entry, after: 10) == "answer fresh at 10")
        #expect(lookup(entry, after: 61) == "revalidate")
        #expect(lookup(nil, after: 0) == "send")
    }

    @Test("The request's own bounds: no-cache, max-age, min-fresh and max-stale")
    func requestBounds() {
        let entry = stored([("Cache-Control", "max-age=60")])
        #expect(lookup(entry, asked: [("Cache-Control", "no-cache")], after: 10) == "revalidate")
        #expect(lookup(entry, asked: [("Cache-Control", "max-age=5")], after: 10) == "revalidate")
        #expect(lookup(entry, asked: [("Cache-Control", "min-fresh=55")], after: 10) == "revalidate")
        #expect(lookup(entry, asked: [("Cache-Control", "max-stale=30")], after: 80) == "answer stale at 80")
        #expect(lookup(entry, asked: [("Cache-Control", "max-stale=10")], after: 80) == "revalidate")
        #expect(lookup(entry, asked: [("Cache-Control", "max-stale")], after: 10_000) == "answer stale at 10000")
    }

    @Test("The response's own: must-revalidate forbids stale answers; stale-while-revalidate answers and revalidates within its window")
    func responseBounds() {
        let strict = stored([("Cache-Control", "max-age=60, must-revalidate")])
        #expect(lookup(strict, asked: [("Cache-Control", "max-stale")], after: 80) == "revalidate")
        let lenient = stored([("Cache-Control", "max-age=60, stale-while-revalidate=30")])
        #expect(lookup(lenient, after: 80) == "answer at 80 and revalidate")
        #expect(lookup(lenient, after: 100) == "revalidate")
    }

    @Test("Policies: return-cache-else-load and only-if-cached answer whatever is stored; only-if-cached with nothing is a 504")
    func policies() {
        let entry = stored([("Cache-Control", "max-age=60")])
        #expect(lookup(entry, policy: .returnCacheElseLoad, after: 600) == "answer stale at 600")
        #expect(lookup(entry, policy: .onlyIfCached, after: 10) == "answer fresh at 10")
        #expect(lookup(nil, policy: .onlyIfCached, after: 0) == "504")
        #expect(lookup(nil, policy: .returnCacheElseLoad, after: 0) == "send")
    }

    @Test("An unsafe request that succeeded invalidates its target and its same-origin Location, never another origin's")
    func invalidation() {
        var fields = HTTPFields()
        fields[.location] = "/orders/7"
        fields[.contentLocation] = "https://elsewhere.test/orders/7"
        let head = ResponseHead(HTTPResponse(status: .created, headerFields: fields))
        #expect(CacheStrategy.invalidated(by: .post, answered: head, key: "https://api.test/orders") == ["https://api.test/orders", "https://api.test/orders/7"])
        #expect(CacheStrategy.invalidated(by: .get, answered: head, key: "https://api.test/orders").isEmpty)
        let failed = ResponseHead(HTTPResponse(status: .internalServerError))
        #expect(CacheStrategy.invalidated(by: .delete, answered: failed, key: "https://api.test/orders").isEmpty)
    }
}
