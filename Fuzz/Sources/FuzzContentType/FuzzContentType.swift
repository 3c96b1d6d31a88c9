// `Content-Type` parameters and charsets: how a text response picks its charset and decodes its body.
//
// Input: the first line is the `Content-Type` value, the rest the body. The charset parameter is
// read directly, then the body is read as a `String` through `Response.decodeBody`, as
// `@ResponseBody` and the `text` response decoder read it.
@_spi(Fuzzing) import Courier
import Foundation
import FuzzDriver
import HTTPTypes

private let request = RawRequest(
    head: HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/text"),
    baseURL: URL(string: "https://example.com")!,
    operationID: "fuzz"
)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let contentType = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = Data(bytes[(newline < bytes.endIndex ? newline + 1 : newline)...])

    if let charset = __fuzzCharsetParameter(contentType) {
        guard charset == charset.lowercased() else { fatalError("charset \(charset.debugDescription) is not lower-cased") }
        guard !charset.contains(";") else { fatalError("charset \(charset.debugDescription) runs past its parameter") }
        guard charset.first != "\"", charset.last != "\"" else { fatalError("charset \(charset.debugDescription) kept its quotes") }
    }

    var fields = HTTPFields()
    fields[.contentType] = contentType
    let response = Response(head: HTTPResponse(status: .ok, headerFields: fields), body: body, request: request)
    let text: String?
    do {
        text = try response.decodeBody(String.self, decoder: JSONDecoder(), when: .success)
    } catch {
        guard error.kind == .decoding else { fatalError("reading text failed with \(error)") }
        return 0
    }
    guard let text else {
        guard body.isEmpty else { fatalError("no text from a body of \(body.count) bytes") }
        return 0
    }
    let charset = fields[.contentType].flatMap(__fuzzCharsetParameter) ?? "utf-8"
    switch charset {
    case "iso-8859-1", "latin1":
        // Every byte is a Latin-1 character.
        guard text.unicodeScalars.count == body.count else { fatalError("\(body.count) Latin-1 bytes read as \(text.unicodeScalars.count) characters") }
    case "us-ascii", "ascii", "utf-16", "utf-16be", "utf-16le", "windows-1252":
        break
    default:
        // UTF-8, named or not: the text is the body's bytes, less a byte order mark.
        let utf8 = Array(text.utf8)
        guard utf8 == Array(body) || [0xEF, 0xBB, 0xBF] + utf8 == Array(body) else {
            fatalError("UTF-8 text does not keep the body's bytes")
        }
    }
    return 0
}

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}
