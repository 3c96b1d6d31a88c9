public import Foundation
public import NIOCore

extension Encodable {
    /// This value as JSON with its keys sorted, as the raw clients send bodies: Courier's default
    /// encoder sorts keys (the same value always gives the same bytes), so that both sides of a
    /// pair encode the same way and send the same bytes.
    public func sortedJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }
}

/// The deadline the raw AsyncHTTPClient requests are sent with: the one Courier gives
/// AsyncHTTPClient by default (`Provider(baseURL:client:)`'s `timeout`), so that both sides of a
/// pair schedule the same timer. NIO keeps an event loop's timers in a heap, and a deadline that
/// falls elsewhere among the connection's own timers (its read and idle timeouts) moves a
/// different number of heap entries: about 1,700 instructions per GET between 30 seconds and one
/// minute, counted by `instructions.py`.
public let rawDeadline: TimeAmount = .minutes(1)
