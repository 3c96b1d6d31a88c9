import Courier
import Foundation
import HTTPTypes
import Testing

private struct Unreachable: Error {}

/// A `CourierError`, a `RetryPolicy` and a request's seldom-set options keep their fields behind
/// one shared reference, so that the frames and copies of the request path stay small. They must
/// still behave as values: a copy changed is a copy apart.
@Suite("Values behind one reference: copies stay apart, and each is a word or so wide")
struct FrozenValueTests {
    @Test("Changing a copy of a retry policy leaves the original, and the standard one, as they were")
    func retryPolicyCopies() {
        let original = RetryPolicy.standard
        var copy = original
        copy.maxAttempts = 7
        copy.statuses.insert(500)
        copy.addsIdempotencyKey = true
        #expect(original.maxAttempts == 3)
        #expect(!original.statuses.contains(500))
        #expect(!original.addsIdempotencyKey)
        #expect(copy.maxAttempts == 7)
        #expect(copy.statuses.contains(500))
        #expect(copy.addsIdempotencyKey)
        #expect(RetryPolicy.standard.maxAttempts == 3)
        #expect(MemoryLayout<RetryPolicy>.size == MemoryLayout<Int>.size)
    }

    @Test("Changing a copy of a request's options leaves the original's as they were")
    func requestOptionsCopies() {
        #expect(RequestBuilder(method: .get, path: "/").timeouts == Timeouts())
        var original = RequestBuilder(method: .get, path: "/users")
        original.timeouts.total = .seconds(5)
        original.retryPolicy = .standard
        var copy = original
        copy.timeouts.total = .seconds(1)
        copy.timeouts.idle = .seconds(2)
        copy.retryPolicy = nil
        copy.cachePolicy = .reload
        copy.absoluteURL = URL(string: "https://example.com/other")
        #expect(original.timeouts == Timeouts(total: .seconds(5)))
        #expect(original.retryPolicy?.maxAttempts == 3)
        #expect(original.cachePolicy == nil)
        #expect(original.absoluteURL == nil)
        #expect(copy.timeouts == Timeouts(idle: .seconds(2), total: .seconds(1)))
        #expect(copy.retryPolicy == nil)
        #expect(copy.cachePolicy == .reload)
        #expect(copy.absoluteURL?.host == "example.com")
        // The request path keeps builders in async frames: its options must not widen it again.
        #expect(MemoryLayout<RequestBuilder>.size <= 160)
    }

    @Test("Changing a copy of an error leaves the original as it was")
    func errorCopies() {
        let original = CourierError.transport(Unreachable(), operationID: "Users.get")
        var copy = original
        copy.operationID = "Other.op"
        #expect(original.operationID == "Users.get")
        #expect(copy.operationID == "Other.op")
        #expect(copy.kind == .transport)
        #expect(copy.underlyingError is Unreachable)
        #expect(MemoryLayout<CourierError>.size == MemoryLayout<Int>.size)
    }
}
