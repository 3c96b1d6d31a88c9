import Foundation

/// A value behind a lock: the one place in the package that opts out of Sendable checking.
package final class Locked<Value>: @unchecked Sendable {
    // Unchecked: `locked_value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var locked_value: Value

    package init(_ value: Value) { locked_value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&locked_value)
    }
}
