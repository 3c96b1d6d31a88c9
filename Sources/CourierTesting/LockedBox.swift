import Foundation

/// A value behind a lock, for test doubles shared across tasks.
final class LockedBox<Value>: @unchecked Sendable {
    // Unchecked: every access to `locked_value` holds `lock`.
    private let lock = NSLock()
    private var locked_value: Value

    init(_ value: Value) { locked_value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&locked_value)
    }
}
