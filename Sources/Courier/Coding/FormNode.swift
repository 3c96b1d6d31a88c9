public import Foundation

/// An ordered tree of strings: what an `Encodable` value becomes before it is written as a query
/// or a URL-encoded form.
enum FormNode: Sendable, Equatable {
    case null
    case value(String)
    case array([FormNode])
    case object([(key: String, value: FormNode)])

    static func == (lhs: FormNode, rhs: FormNode) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.value(let a), .value(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.elementsEqual(b) { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

/// How arrays are written in a query or a URL-encoded form.
public struct ArrayEncoding: Hashable, Sendable {
    enum Style: Hashable, Sendable { case repeatedKey, brackets, indexed }
    let style: Style

    /// `tags=a&tags=b`
    public static let repeatedKey = ArrayEncoding(style: .repeatedKey)
    /// `tags[]=a&tags[]=b`
    public static let brackets = ArrayEncoding(style: .brackets)
    /// `tags[0]=a&tags[1]=b`
    public static let indexed = ArrayEncoding(style: .indexed)
}

/// How dates are written in a query or a URL-encoded form.
public struct FormDateEncoding: Sendable {
    let format: @Sendable (Date) -> String

    /// ISO 8601 with time zone, such as `2024-05-01T12:30:00Z`.
    public static let iso8601 = FormDateEncoding { $0.formatted(.iso8601) }
    /// Your own format, such as seconds since 1970:
    /// `.custom { String($0.timeIntervalSince1970) }`.
    public static func custom(_ format: @escaping @Sendable (Date) -> String) -> FormDateEncoding {
        FormDateEncoding(format: format)
    }
}

extension FormNode {
    /// Flattens the tree into `(key, value)` pairs, nested keys as `a[b]`, arrays as `style`
    /// says. `null` leaves are dropped: an absent optional is omitted, not sent as empty.
    func flatten(key: String, arrays: ArrayEncoding, into pairs: inout [(String, String)]) {
        switch self {
        case .null:
            return
        case .value(let string):
            pairs.append((key, string))
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                let elementKey: String =
                    switch arrays.style {
                    case .repeatedKey: key
                    case .brackets: key + "[]"
                    case .indexed: key + "[\(index)]"
                    }
                element.flatten(key: elementKey, arrays: arrays, into: &pairs)
            }
        case .object(let members):
            for member in members {
                member.value.flatten(key: key.isEmpty ? member.key : "\(key)[\(member.key)]", arrays: arrays, into: &pairs)
            }
        }
    }
}
