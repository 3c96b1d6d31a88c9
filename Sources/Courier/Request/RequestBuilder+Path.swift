extension RequestBuilder {
    /// The request target — path and query — relative to the base URL, every value
    /// percent-encoded. Written byte by byte into one buffer: this runs for every request.
    func renderTarget(keyMapping: KeyMapping, arrays: ArrayEncoding) throws(CourierError) -> String {
        // The template is read where it is stored and the target written on the stack, so that
        // the only allocation is the finished `String` (none for a short one).
        var template = path
        let rendered = template.withUTF8 { template in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.targetScratchBytes) { scratch in
                Result { () throws(CourierError) -> String in
                    var output = SpillingBytes(scratch)
                    try render(template[...], into: &output, keyMapping: keyMapping, arrays: arrays)
                    return output.string()
                }
            }
        }
        return try rendered.get()
    }

    /// The bytes of a request target written on the stack; a longer one moves to the heap.
    static let targetScratchBytes = 1024

    private func render(_ template: TemplateBytes, into output: inout SpillingBytes, keyMapping: KeyMapping, arrays: ArrayEncoding) throws(CourierError) {
        var used = UsedParameters()
        let questionMark = template.firstIndex(of: UInt8(ascii: "?")) ?? template.endIndex
        if template[..<questionMark].contains(UInt8(ascii: "#")) {
            throw CourierError(.malformedPath(path: path, reason: "a path template cannot hold a fragment ('#')"))
        }
        if template.first != UInt8(ascii: "/") { output.append(UInt8(ascii: "/")) }

        var segmentStart = template.startIndex
        while segmentStart <= questionMark {
            let segmentEnd = template[segmentStart..<questionMark].firstIndex(of: UInt8(ascii: "/")) ?? questionMark
            try renderSegment(template[segmentStart..<segmentEnd], into: &output, used: &used)
            if segmentEnd == questionMark { break }
            output.append(UInt8(ascii: "/"))
            segmentStart = segmentEnd + 1
        }
        for (index, parameter) in parameters.enumerated() where !used.contains(index) {
            throw CourierError(.unusedPathParameter(name: parameter.name, path: path))
        }

        var hasQuery = false
        if questionMark < template.endIndex, questionMark + 1 < template.endIndex {
            output.append(UInt8(ascii: "?"))
            PercentEncoding.appendTemplateText(template[(questionMark + 1)...], to: &output, allowing: PercentEncoding.isQueryCharacter)
            hasQuery = true
        }
        try appendQueryItems(to: &output, hasQuery: &hasQuery, keyMapping: keyMapping, arrays: arrays)
    }

    /// One segment: static text kept (encoded where it must be), `:name` at the segment's start
    /// and `{name}` anywhere replaced by their values, encoded so that they cannot leave it.
    private func renderSegment(_ segment: TemplateBytes, into output: inout SpillingBytes, used: inout UsedParameters) throws(CourierError) {
        // Whether the segment's decoded text is empty, "." or ".."; only those can remove or
        // climb a segment.
        var decodedLength = 0
        var decodedIsDots = true
        var substituted: (name: String, value: String)?

        func substitute(_ name: TemplateBytes) throws(CourierError) {
            guard let index = parameters.firstIndex(where: { $0.name.utf8.elementsEqual(name) }),
                let value = parameters[index].value
            else {
                throw CourierError(.missingPathParameter(name: String(decoding: name, as: UTF8.self), path: path))
            }
            used.insert(index)
            for byte in value.utf8 {
                PercentEncoding.append(byte, to: &output, allowing: PercentEncoding.isUnreserved)
                if byte != UInt8(ascii: ".") { decodedIsDots = false }
            }
            decodedLength += value.utf8.count
            substituted = (parameters[index].name, value)
        }

        var index = segment.startIndex
        if segment.first == UInt8(ascii: ":") {
            let nameEnd = segment[(index + 1)...].firstIndex { !Self.isIdentifierByte($0) } ?? segment.endIndex
            if nameEnd > index + 1 {
                try substitute(segment[(index + 1)..<nameEnd])
                index = nameEnd
            }
        }
        while index < segment.endIndex {
            if segment[index] == UInt8(ascii: "{"),
                let close = segment[index...].firstIndex(of: UInt8(ascii: "}")),
                close > index + 1,
                segment[(index + 1)..<close].allSatisfy(Self.isIdentifierByte)
            {
                try substitute(segment[(index + 1)..<close])
                index = close + 1
                continue
            }
            let next = segment[(index + 1)...].firstIndex(of: UInt8(ascii: "{")) ?? segment.endIndex
            let text = segment[index..<next]
            PercentEncoding.appendTemplateText(text, to: &output) { $0 != UInt8(ascii: "/") && PercentEncoding.isPathCharacter($0) }
            decodedLength += text.count
            if text.contains(where: { $0 != UInt8(ascii: ".") }) { decodedIsDots = false }
            index = next
        }
        if let substituted, decodedLength == 0 || (decodedIsDots && decodedLength <= 2) {
            throw CourierError(.unsafePathValue(name: substituted.name, value: substituted.value))
        }
    }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"):
            true
        default: false
        }
    }

    private func appendQueryItems(
        to output: inout SpillingBytes,
        hasQuery: inout Bool,
        keyMapping: KeyMapping,
        arrays: ArrayEncoding
    ) throws(CourierError) {
        func append(_ key: String, _ value: String?) {
            output.append(hasQuery ? UInt8(ascii: "&") : UInt8(ascii: "?"))
            hasQuery = true
            for byte in key.utf8 { PercentEncoding.append(byte, to: &output, allowing: PercentEncoding.isUnreserved) }
            guard let value else { return }
            output.append(UInt8(ascii: "="))
            for byte in value.utf8 { PercentEncoding.append(byte, to: &output, allowing: PercentEncoding.isUnreserved) }
        }
        for item in queryItems {
            let key = item.mapsKey ? keyMapping.encode(item.key) : item.key
            switch item.value {
            case .string(let value):
                append(key, value)
            case .encodable(let value):
                let node: FormNode
                do {
                    node = try FormTreeEncoder(keyMapping: keyMapping).encode(value)
                } catch {
                    throw CourierError(.encoding(what: "the query item '\(item.key)'", error))
                }
                var flattened: [(String, String)] = []
                node.flatten(key: key, arrays: arrays, into: &flattened)
                for pair in flattened { append(pair.0, pair.1) }
            }
        }
    }
}

/// Which path parameters a template used: bits of one integer for up to 64 parameters (no
/// allocation on the request path), a set beyond that.
struct UsedParameters {
    private var bits: UInt64 = 0
    private var more: Set<Int> = []

    mutating func insert(_ index: Int) {
        if index < 64 { bits |= 1 << UInt64(index) } else { more.insert(index) }
    }

    func contains(_ index: Int) -> Bool {
        index < 64 ? bits & (1 << UInt64(index)) != 0 : more.contains(index)
    }
}
