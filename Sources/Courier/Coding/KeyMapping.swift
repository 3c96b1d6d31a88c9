/// How Courier spells the keys of query items, body fields and bodies, and reads the keys of
/// responses.
///
/// ```swift
/// let provider = Provider(baseURL: "https://api.example.com", keyMapping: .snakeCase)
/// // `userID` goes out as `user_id`; `created_at` in a response decodes into `createdAt`.
/// ```
public struct KeyMapping: Sendable {
    enum Storage: Sendable {
        case useDefaultKeys
        case snakeCase
        case custom(to: @Sendable (String) -> String, from: @Sendable (String) -> String)
    }

    let storage: Storage

    /// Keys go out and are read exactly as the Swift names spell them.
    public static let useDefaultKeys = KeyMapping(storage: .useDefaultKeys)

    /// `camelCase` names go out as `snake_case`; `snake_case` keys of responses decode into
    /// `camelCase` properties. The conversion is the one `JSONEncoder` uses.
    public static let snakeCase = KeyMapping(storage: .snakeCase)

    /// Keys are converted by your own functions: `to` for outgoing keys, `from` for the keys of
    /// a response.
    public static func custom(
        to: @escaping @Sendable (String) -> String,
        from: @escaping @Sendable (String) -> String
    ) -> KeyMapping {
        KeyMapping(storage: .custom(to: to, from: from))
    }

    /// The key that goes out for the Swift name `key`.
    public func encode(_ key: String) -> String {
        switch storage {
        case .useDefaultKeys: key
        case .snakeCase: Self.snakeCased(key)
        case .custom(let to, _): to(key)
        }
    }

    /// The Swift name that a response's `key` decodes into.
    public func decode(_ key: String) -> String {
        switch storage {
        case .useDefaultKeys: key
        case .snakeCase: Self.camelCased(key)
        case .custom(_, let from): from(key)
        }
    }

    var isDefault: Bool {
        if case .useDefaultKeys = storage { return true }
        return false
    }

    /// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`'s rule: a word starts at an upper-case
    /// letter after a lower-case one, and at the last capital of a run followed by a lower-case
    /// letter (`myURLValue` → `my_url_value`).
    static func snakeCased(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchRange = key.index(after: wordStart)..<key.endIndex
        while let upperCaseRange = key.rangeOfCharacter(in: searchRange, where: \.isUppercase) {
            let untilUpperCase = wordStart..<upperCaseRange.lowerBound
            words.append(untilUpperCase)
            searchRange = upperCaseRange.lowerBound..<searchRange.upperBound
            guard let lowerCaseRange = key.rangeOfCharacter(in: searchRange, where: \.isLowercase) else {
                wordStart = searchRange.lowerBound
                break
            }
            let nextCharacterAfterCapital = key.index(after: upperCaseRange.lowerBound)
            if lowerCaseRange.lowerBound == nextCharacterAfterCapital {
                wordStart = upperCaseRange.lowerBound
            } else {
                let beforeLowerIndex = key.index(before: lowerCaseRange.lowerBound)
                words.append(upperCaseRange.lowerBound..<beforeLowerIndex)
                wordStart = beforeLowerIndex
            }
            searchRange = lowerCaseRange.upperBound..<searchRange.upperBound
        }
        words.append(wordStart..<searchRange.upperBound)
        return words.filter { !$0.isEmpty }.map { key[$0].lowercased() }.joined(separator: "_")
    }

    /// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`'s rule, leading and trailing
    /// underscores kept.
    static func camelCased(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        guard let last = key.lastIndex(where: { $0 != "_" }) else { return key }
        let core = key[first...last]
        let parts = core.split(separator: "_")
        guard parts.count > 1 else { return key }
        let joined = ([parts[0].lowercased()] + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }).joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }
}

extension String {
    fileprivate func rangeOfCharacter(in range: Range<Index>, where predicate: (Character) -> Bool) -> Range<Index>? {
        var index = range.lowerBound
        while index < range.upperBound {
            if predicate(self[index]) { return index..<self.index(after: index) }
            index = self.index(after: index)
        }
        return nil
    }
}
