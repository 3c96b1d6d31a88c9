import Courier

/// Thread-safe list of strings for tests that watch the order of events.
public final class Log: Sendable {
    private let entriesBox = Locked<[String]>([])
    public init() {}
    public func append(_ entry: String) { entriesBox.withLock { $0.append(entry) } }
    public var entries: [String] { entriesBox.withLock { $0 } }
}
