// Typed header values: `HeaderValue` for String, Int, Int64, Double, Bool, URL and Date.
//
// Input: one header value. It is read as every type; a value that reads re-serialises to text
// that reads back as the same value.
import Courier
import Foundation
import FuzzDriver

private let imfFixdate: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter
}()

/// 1900-01-01 to 9999-12-31: the years an IMF-fixdate's four digits write as Gregorian dates.
private let writableDates = Date(timeIntervalSince1970: -2_208_988_800)...Date(timeIntervalSince1970: 253_402_300_799)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)

    guard String(headerValue: text) != nil else { fatalError("a String header value was refused") }

    if let int = Int(headerValue: text) {
        guard Int(headerValue: String(int)) == int else { fatalError("Int \(int) does not read back") }
    }
    if let int = Int64(headerValue: text) {
        guard Int64(headerValue: String(int)) == int else { fatalError("Int64 \(int) does not read back") }
    }
    if let double = Double(headerValue: text), double.isFinite {
        guard Double(headerValue: "\(double)") == double else { fatalError("Double \(double) does not read back") }
    }
    if let bool = Bool(headerValue: text) {
        guard Bool(headerValue: String(bool)) == bool else { fatalError("Bool \(bool) does not read back") }
    }
    if let url = URL(headerValue: text) {
        guard let again = URL(headerValue: url.absoluteString), again.absoluteString == url.absoluteString else {
            fatalError("URL \(url.absoluteString.debugDescription) does not read back")
        }
    }
    if let date = Date(headerValue: text) {
        guard date.timeIntervalSince1970.isFinite else { fatalError("a date that is not finite from \(text.debugDescription)") }
        if writableDates.contains(date) {
            // Written as an IMF-fixdate (whole seconds), it reads back as the same second.
            let written = imfFixdate.string(from: date)
            guard let again = Date(headerValue: written) else { fatalError("\(written) from \(text.debugDescription) does not read back") }
            guard again.timeIntervalSince1970 == date.timeIntervalSince1970.rounded(.down) else {
                fatalError("\(written) reads back as \(again.timeIntervalSince1970), not \(date.timeIntervalSince1970)")
            }
        }
    }
    return 0
}

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}
