import Foundation

/// Thread-safe list of strings for tests that watch the order of events.
public final class Log: @unchecked Sendable {
    // Unchecked: `locked_entries` is only touched while `lock` is held.
    private let lock = NSLock()
    private var locked_entries: [String] = []
    public init() {}
    public func append(_ entry: String) { lock.withLock { locked_entries.append(entry) } }
    public var entries: [String] { lock.withLock { locked_entries } }
}

