// `Retry-After` as the retry policy reads it: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
//
// Input: one header value. A wait is never negative; digits alone read as that many seconds (a
// huge number saturates); a date in the past is no wait; the same value read a second later asks
// for at most the same wait.
@_spi(Fuzzing) import Courier
import Foundation
import FuzzDriver

private let now = Date(timeIntervalSince1970: 1_790_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    guard let wait = __fuzzRetryAfter(text, now: now) else { return 0 }
    guard wait >= .zero else { fatalError("a negative wait \(wait) from \(text.debugDescription)") }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
        let expected: Duration = Int64(trimmed).map { .seconds($0) } ?? .seconds(Int64.max)
        guard wait == expected else { fatalError("\(text.debugDescription) read as \(wait), not \(expected)") }
    } else {
        guard let later = __fuzzRetryAfter(text, now: now.addingTimeInterval(1)), later <= wait else {
            fatalError("an HTTP date \(text.debugDescription) asks for a longer wait a second later")
        }
    }
    return 0
}

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}
