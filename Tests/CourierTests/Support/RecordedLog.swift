import Courier
import Logging

/// Log entries kept in memory.
final class RecordedLog: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }
    private let box = Locked<[Entry]>([])
    var entries: [Entry] { box.withLock { $0 } }

    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "courier-tests") { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    struct Handler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let metadata = (event.metadata ?? [:]).mapValues { "\($0)" }
            log.box.withLock { $0.append(Entry(level: event.level, message: "\(event.message)", metadata: metadata)) }
        }
    }
}
