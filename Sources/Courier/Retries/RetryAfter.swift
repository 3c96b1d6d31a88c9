import Foundation
import HTTPTypes

/// `Retry-After` (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
enum RetryAfter {
    /// The wait `value` asks for, never negative; `nil` when it is neither form.
    static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingWhitespace()
        guard let first = trimmed.utf8.first else { return nil }
        if trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Any number of digits: a huge one saturates rather than failing.
            return .seconds(Int64(trimmed) ?? .max)
        }
        guard first >= UInt8(ascii: "A"), let date = Date(headerValue: trimmed) else { return nil }
        let seconds = date.timeIntervalSince(now)
        guard seconds > 0 else { return .zero }
        return seconds < 1e12 ? .milliseconds(Int64(seconds * 1000)) : .seconds(Int64(1e12))
    }
}

extension Clock where Duration == Swift.Duration {
    /// The time since now, on this clock.
    func stopwatch() -> @Sendable () -> Swift.Duration {
        let start = now
        return { start.duration(to: self.now) }
    }

    /// Waits `duration` on this clock; throws when the task is cancelled.
    func wait(_ duration: Swift.Duration) async throws {
        try await sleep(until: now.advanced(by: duration), tolerance: nil)
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header).
    // A valid token written here, so the initializer cannot fail.
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
