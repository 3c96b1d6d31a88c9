extension RequestBuilder {
    /// The request target — path and query — relative to the base URL, every value
    /// percent-encoded.
    func renderTarget(keyMapping: KeyMapping, arrays: ArrayEncoding) throws(CourierError) -> String {
        let template = path
        let pathPart: Substring
        let staticQuery: Substring?
        if let questionMark = template.firstIndex(of: "?") {
            pathPart = template[..<questionMark]
            staticQuery = template[template.index(after: questionMark)...]
        } else {
            pathPart = template[...]
            staticQuery = nil
        }
        if pathPart.contains("#") {
            throw CourierError(.malformedPath(path: template, reason: "a path template cannot hold a fragment ('#')"))
        }

        var output = try renderPath(pathPart)
        var query = ""
        if let staticQuery, !staticQuery.isEmpty {
            query = PercentEncoding.encodeTemplateText(staticQuery, allowing: PercentEncoding.isQueryCharacter)
        }
        try appendQueryItems(to: &query, keyMapping: keyMapping, arrays: arrays)
        if !query.isEmpty {
            output += "?"
            output += query
        }
        return output
    }

    private func renderPath(_ template: Substring) throws(CourierError) -> String {
        var used: Set<String> = []
        var output = ""
        let segments = template.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if index > 0 { output += "/" }
            output += try renderSegment(segment, used: &used)
        }
        if !output.hasPrefix("/") { output = "/" + output }
        for parameter in parameters where !used.contains(parameter.name) {
            throw CourierError(.unusedPathParameter(name: parameter.name, path: path))
        }
        return output
    }

    /// One segment: static text kept (encoded where it must be), `:name` at the segment's start
    /// and `{name}` anywhere replaced by their values, encoded so that they cannot leave it.
    private func renderSegment(_ segment: Substring, used: inout Set<String>) throws(CourierError) -> String {
        var output = ""
        var decoded = ""
        var substituted: (name: String, value: String)?
        var index = segment.startIndex

        func substitute(_ name: String) throws(CourierError) {
            guard let entry = parameters.first(where: { $0.name == name }), let value = entry.value else {
                throw CourierError(.missingPathParameter(name: name, path: path))
            }
            used.insert(name)
            PercentEncoding.encode(value, into: &output, allowing: PercentEncoding.isUnreserved)
            decoded += value
            substituted = (name, value)
        }

        if segment.first == ":" {
            let nameEnd = segment.dropFirst().firstIndex { !Self.isIdentifierCharacter($0) } ?? segment.endIndex
            let name = String(segment[segment.index(after: segment.startIndex)..<nameEnd])
            if !name.isEmpty {
                try substitute(name)
                index = nameEnd
            }
        }
        while index < segment.endIndex {
            if segment[index] == "{",
                let close = segment[index...].firstIndex(of: "}")
            {
                let name = String(segment[segment.index(after: index)..<close])
                if !name.isEmpty, name.allSatisfy(Self.isIdentifierCharacter) {
                    try substitute(name)
                    index = segment.index(after: close)
                    continue
                }
            }
            let next = segment[index...].dropFirst().firstIndex(of: "{") ?? segment.endIndex
            let text = segment[index..<next]
            output += PercentEncoding.encodeTemplateText(text) { $0 != UInt8(ascii: "/") && PercentEncoding.isPathCharacter($0) }
            decoded += text
            index = next
        }
        if let substituted, decoded.isEmpty || decoded == "." || decoded == ".." {
            throw CourierError(.unsafePathValue(name: substituted.name, value: substituted.value))
        }
        return output
    }

    static func isIdentifierCharacter(_ character: Character) -> Bool {
        character == "_" || (character.isASCII && (character.isLetter || character.isNumber))
    }

    private func appendQueryItems(to query: inout String, keyMapping: KeyMapping, arrays: ArrayEncoding) throws(CourierError) {
        guard !queryItems.isEmpty else { return }
        let encoder = FormTreeEncoder(keyMapping: keyMapping)
        var pairs: [(String, String?)] = []
        for item in queryItems {
            let key = item.mapsKey ? keyMapping.encode(item.key) : item.key
            switch item.value {
            case .string(let value):
                pairs.append((key, value))
            case .encodable(let value):
                let node: FormNode
                do {
                    node = try encoder.encode(value)
                } catch {
                    throw CourierError(.encoding(what: "the query item '\(item.key)'", error))
                }
                var flattened: [(String, String)] = []
                node.flatten(key: key, arrays: arrays, into: &flattened)
                for pair in flattened { pairs.append((pair.0, pair.1)) }
            }
        }
        for (key, value) in pairs {
            if !query.isEmpty { query += "&" }
            PercentEncoding.encode(key, into: &query, allowing: PercentEncoding.isUnreserved)
            if let value {
                query += "="
                PercentEncoding.encode(value, into: &query, allowing: PercentEncoding.isUnreserved)
            }
        }
    }
}
