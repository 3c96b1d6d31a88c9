/// Percent-encoding as RFC 3986 defines it, without Foundation's per-platform character sets.
enum PercentEncoding {
    /// `A–Z a–z 0–9 - . _ ~`: the only bytes that never need encoding anywhere in a URL.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Bytes allowed literally in a path (pchar and `/`), used for the template's own text.
    static func isPathCharacter(_ byte: UInt8) -> Bool {
        if isUnreserved(byte) { return true }
        return switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            true
        default: false
        }
    }

    /// Bytes allowed literally in a query written by hand in a path template.
    static func isQueryCharacter(_ byte: UInt8) -> Bool {
        isPathCharacter(byte) || byte == UInt8(ascii: "?")
    }

    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Appends `byte`, percent-encoded unless `isAllowed` accepts it.
    @inline(__always)
    static func append(_ byte: UInt8, to output: inout [UInt8], allowing isAllowed: (UInt8) -> Bool) {
        if isAllowed(byte) {
            output.append(byte)
        } else {
            output.append(UInt8(ascii: "%"))
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0x0F)])
        }
    }

    /// Appends template text, keeping `%XX` escapes the author already wrote.
    static func appendTemplateText(_ bytes: ArraySlice<UInt8>, to output: inout [UInt8], allowing isAllowed: (UInt8) -> Bool) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                output.append(contentsOf: bytes[index...(index + 2)])
                index += 3
                continue
            }
            append(byte, to: &output, allowing: isAllowed)
            index += 1
        }
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}
