import Courier
import Foundation

/// A value of the typed-stream tests' events and records.
struct Tick: Codable, Sendable, Equatable {
    var n: Int
}

/// Reads every value of `stream`.
func collect<S: AsyncSequence>(_ stream: S) async throws -> [S.Element] {
    var values: [S.Element] = []
    for try await value in stream { values.append(value) }
    return values
}

/// The values of `stream` read until it ends or fails, and the failure. `each` sees every value
/// as it arrives (to signal a scripted drop once the client has read what comes before it).
func collectUntilFailure<S: AsyncSequence>(_ stream: S, each: (S.Element) -> Void = { _ in }) async -> ([S.Element], CourierError?) {
    var values: [S.Element] = []
    do {
        for try await value in stream {
            values.append(value)
            each(value)
        }
        return (values, nil)
    } catch {
        return (values, error as? CourierError)
    }
}

/// Every way to cut `text` in two.
func splits(_ text: String) -> [[String]] {
    let bytes = Array(text.utf8)
    return (0...bytes.count).map { cut in
        [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
    }
}
