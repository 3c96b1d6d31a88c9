// URL-form bodies: `URLFormDecoder` and the form parser under it.
//
// Input: a whole `application/x-www-form-urlencoded` body. It is parsed into its tree, then
// decoded into a nested `Decodable` with optionals, arrays, numbers, bools, dates and URLs, with
// the default keys (even lengths) or snake_case keys (odd lengths), and into a schema-less walk. Decoding may fail, never crash. Each
// piece of the body is also percent-decoded, and must come out as Foundation decodes it (but for
// one quirk of Foundation's, below).
@_spi(Fuzzing) import Courier
import Foundation
import FuzzDriver

struct Page: Decodable {
    struct Item: Decodable {
        var id: Int
        var name: String?
        var price: Double?
        var tags: [String]?
        var flags: [Bool]?
    }

    struct Owner: Decodable {
        var login: String
        var age: UInt8?
        var ratio: Float?
        var createdAt: Date?
        var homePage: URL?
        var owner: [String: String]?
    }

    var page: Int?
    var total: Int64?
    var active: Bool?
    var query: String?
    var items: [Item]?
    var owner: Owner?
    var matrix: [[Int]]?
    var optionals: [Int?]?
    var small: Int8?
    var counts: [String: Int]?
}

/// What keeps only what is there: decodes any tree (lists, keyed values and text) without a schema.
/// The form decoder reads a single value as a list of one as well (`tags=x` is `["x"]`), so a
/// type that tries lists before single values would go on forever: the walk stops one level below
/// the deepest nesting of the input's tree (at most 24 levels down), so that every level of the
/// tree is walked and no time goes to lists of one below it.
struct AnyValue: Decodable {
    /// How deep the walk goes for the current input (the harness runs one input at a time).
    nonisolated(unsafe) static var depthLimit = 24

    init(from decoder: any Decoder) throws {
        if decoder.codingPath.count > Self.depthLimit {
            return
        } else if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            for key in keyed.allKeys { _ = try? keyed.decode(AnyValue.self, forKey: key) }
        } else if var list = try? decoder.unkeyedContainer() {
            while !list.isAtEnd { guard (try? list.decode(AnyValue.self)) != nil else { break } }
        } else {
            _ = try? decoder.singleValueContainer().decode(String.self)
        }
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let text = String(decoding: data, as: UTF8.self)

    let pairs = text.split(separator: "&", omittingEmptySubsequences: true).count
    let shape = __fuzzFormTreeShape(text)
    // Each pair adds at most one text leaf (a repeated scalar key turns into a list of them).
    guard shape.leaves <= pairs else { fatalError("\(shape.leaves) text leaves from \(pairs) pairs") }
    // Nesting comes from brackets, one level for each `[`.
    guard shape.depth <= text.utf8.count + 1 else { fatalError("depth \(shape.depth) from \(text.utf8.count) bytes") }

    // Courier's percent-decoding gives what Foundation's does, for every piece of the body, except
    // where Foundation on Linux makes a stray UTF-8 byte a replacement character (`%A9`) and
    // Courier refuses it, as it refuses every other byte that is not UTF-8.
    func agree(_ courier: String?, _ foundation: String?, _ piece: String) -> Bool {
        func replacements(_ text: String) -> Int { text.unicodeScalars.count { $0 == "\u{FFFD}" } }
        if courier == foundation { return true }
        guard courier == nil, let foundation else { return false }
        return replacements(foundation) > replacements(piece)
    }
    for piece in text.split(whereSeparator: { $0 == "&" || $0 == "=" }) {
        let piece = String(piece)
        // `+` is a space wherever it is, also before a combining mark (Foundation's
        // `replacingOccurrences` works on whole characters and would keep that one).
        let spaced = String(String.UnicodeScalarView(piece.unicodeScalars.map { $0 == "+" ? " " : $0 }))
        // Without a `%` there is nothing to decode, and the expected text is known without asking
        // Foundation (whose bridging costs more than the rest of this check).
        let hasEscape = piece.utf8.contains(UInt8(ascii: "%"))
        guard agree(__fuzzPercentDecoded(piece, plusAsSpace: true), hasEscape ? spaced.removingPercentEncoding : spaced, piece),
            agree(__fuzzPercentDecoded(piece, plusAsSpace: false), hasEscape ? piece.removingPercentEncoding : piece, piece)
        else { fatalError("percent-decoding differs from Foundation's for \(piece.debugDescription)") }
    }

    // The schema with the default keys for even lengths and snake_case keys for odd ones (each
    // decode parses the body again, and the parse is most of the time of an input).
    _ = try? URLFormDecoder(keyMapping: count % 2 == 0 ? .useDefaultKeys : .snakeCase).decode(Page.self, from: data)
    AnyValue.depthLimit = min(shape.depth + 1, 24)
    _ = try? URLFormDecoder().decode(AnyValue.self, from: data)
    return 0
}

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}
