import Foundation
import HTTPTypes

extension HTTPField.Name {
    /// The headers whose values are secrets unless a caller reveals them.
    package static let alwaysSecret: Set<HTTPField.Name> = [.authorization, .cookie, .proxyAuthorization]
}

extension RawRequest {
    /// A `curl` command that sends this request again, every argument shell-quoted.
    ///
    /// `Authorization`, `Cookie`, `Proxy-Authorization` and the headers in `secrets` are written
    /// as `<redacted>` unless named in `revealing`. A body that can be read only once is not
    /// read; the command says so instead.
    public func cURL(secrets: Set<HTTPField.Name> = [], revealing: Set<HTTPField.Name> = []) async -> String {
        var request = self
        let body: Data? =
            if request.body?.iterationBehavior == .multiple {
                (try? await request.collectBody(upTo: 1 << 20)) ?? nil
            } else {
                nil
            }
        var lines = ["curl"]
        // curl sends GET without a body and POST with one; any other pairing needs -X.
        if body == nil ? method != .get : method != .post {
            lines[0] += " -X \(method.rawValue)"
        }
        lines[0] += " " + Self.shellQuote(url?.absoluteString ?? baseURL.absoluteString + path)
        let hidden = HTTPField.Name.alwaysSecret.union(secrets).subtracting(revealing)
        for field in headers {
            let value = hidden.contains(field.name) ? "<redacted>" : field.value
            lines.append("-H " + Self.shellQuote("\(field.name.rawName): \(value)"))
        }
        if let body {
            lines.append("--data-binary " + Self.shellQuote(body))
        } else if self.body != nil {
            lines.append("# the body is a stream that can be read once; it is not shown")
        }
        return lines.joined(separator: " \\\n  ")
    }

    /// Single quotes for printable text; ANSI-C `$'…'` quoting for anything with control
    /// characters or bytes that are not UTF-8, so that the command reproduces them exactly.
    static func shellQuote(_ text: String) -> String {
        shellQuote(Data(text.utf8))
    }

    static func shellQuote(_ bytes: Data) -> String {
        let printable = bytes.allSatisfy { $0 >= 0x20 && $0 != 0x7F || $0 == 0x0A || $0 == 0x09 }
        if printable, let text = String(data: bytes, encoding: .utf8) {
            return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        var result = "$'"
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "'"): result += "\\'"
            case UInt8(ascii: "\\"): result += "\\\\"
            case 0x20...0x7E: result.unicodeScalars.append(Unicode.Scalar(byte))
            default: result += String(format: "\\x%02X", byte)
            }
        }
        return result + "'"
    }
}
