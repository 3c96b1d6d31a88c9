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
    static func append(_ byte: UInt8, to output: inout some ByteOutput, allowing isAllowed: (UInt8) -> Bool) {
        if isAllowed(byte) {
            output.append(byte)
        } else {
            output.append(UInt8(ascii: "%"))
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0x0F)])
        }
    }

    /// Appends template text, keeping `%XX` escapes the author already wrote.
    static func appendTemplateText(_ bytes: TemplateBytes, to output: inout some ByteOutput, allowing isAllowed: (UInt8) -> Bool) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                for escaped in bytes[index...(index + 2)] { output.append(escaped) }
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

/// Where percent-encoded bytes are written: an array, or a request target's buffer.
protocol ByteOutput {
    mutating func append(_ byte: UInt8)
}

extension Array: ByteOutput where Element == UInt8 {}

/// A path template's bytes, read in place.
typealias TemplateBytes = Slice<UnsafeBufferPointer<UInt8>>

/// Bytes written into a buffer lent by the caller (on the stack), moving to an array only when
/// they outgrow it: a request target is written without allocating, until it is made a `String`.
struct SpillingBytes: ByteOutput {
    private let scratch: UnsafeMutableBufferPointer<UInt8>
    private var count = 0
    private var spilled: [UInt8]?

    init(_ scratch: UnsafeMutableBufferPointer<UInt8>) {
        self.scratch = scratch
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if spilled == nil, count < scratch.count {
            scratch[count] = byte
            count += 1
            return
        }
        if spilled == nil {
            var bytes = [UInt8]()
            bytes.reserveCapacity(scratch.count * 2)
            bytes.append(contentsOf: scratch)
            spilled = bytes
        }
        spilled?.append(byte)
    }

    /// The bytes written, as text.
    func string() -> String {
        if let spilled { return String(decoding: spilled, as: UTF8.self) }
        return String(decoding: UnsafeBufferPointer(rebasing: scratch[..<count]), as: UTF8.self)
    }
}
