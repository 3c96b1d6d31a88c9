public import Foundation

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
