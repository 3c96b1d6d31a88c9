import Courier
public import Foundation

/// A check of an HTTP Archive against the HAR 1.2 format (the specification's object model, as the
/// JSON Schema that validators use states it): every required field present with its type, no
/// field the format does not name except `comment` and custom `_`-prefixed ones, times in ISO 8601,
/// sizes whole numbers, timings at least -1 and `send`, `wait`, `receive` present, URLs absolute.
public enum HARSchema {
    /// The problems with the archive in `data`, each as `path: what`; empty when it conforms.
    public static func problems(in data: Data) -> [String] {
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: data) else { return ["$: not JSON"] }
        var check = Check()
        check.object(root, "$", shape: archive)
        return check.problems
    }

    /// What a field holds.
    indirect enum Kind {
        case string, integer, number(minimum: Double), boolean, timestamp, url
        case object(Shape)
        case array(of: Kind)
        case optionalTimestamp
    }

    /// An object's required and optional fields.
    struct Shape {
        var required: [String: Kind]
        var optional: [String: Kind] = [:]
    }

    static let pair = Shape(required: ["name": .string, "value": .string])
    static let cookie = Shape(
        required: ["name": .string, "value": .string],
        optional: ["path": .string, "domain": .string, "expires": .optionalTimestamp, "httpOnly": .boolean, "secure": .boolean])
    static let creator = Shape(required: ["name": .string, "version": .string])
    static let param = Shape(required: ["name": .string], optional: ["value": .string, "fileName": .string, "contentType": .string])
    static let postData = Shape(required: ["mimeType": .string], optional: ["params": .array(of: .object(param)), "text": .string])
    static let content = Shape(
        required: ["size": .integer, "mimeType": .string], optional: ["compression": .integer, "text": .string, "encoding": .string])
    static let request = Shape(required: [
        "method": .string, "url": .url, "httpVersion": .string, "cookies": .array(of: .object(cookie)),
        "headers": .array(of: .object(pair)), "queryString": .array(of: .object(pair)), "headersSize": .integer, "bodySize": .integer,
    ], optional: ["postData": .object(postData)])
    static let response = Shape(required: [
        "status": .integer, "statusText": .string, "httpVersion": .string, "cookies": .array(of: .object(cookie)),
        "headers": .array(of: .object(pair)), "content": .object(content), "redirectURL": .string, "headersSize": .integer,
        "bodySize": .integer,
    ])
    static let cacheState = Shape(
        required: ["lastAccess": .timestamp, "eTag": .string, "hitCount": .integer], optional: ["expires": .optionalTimestamp])
    static let timings = Shape(
        required: ["send": .number(minimum: -1), "wait": .number(minimum: -1), "receive": .number(minimum: -1)],
        optional: ["dns": .number(minimum: -1), "connect": .number(minimum: -1), "blocked": .number(minimum: -1), "ssl": .number(minimum: -1)])
    static let entry = Shape(required: [
        "startedDateTime": .timestamp, "time": .number(minimum: 0), "request": .object(request), "response": .object(response),
        "cache": .object(Shape(required: [:], optional: ["beforeRequest": .object(cacheState), "afterRequest": .object(cacheState)])),
        "timings": .object(timings),
    ], optional: ["pageref": .string, "serverIPAddress": .string, "connection": .string])
    static let page = Shape(required: [
        "startedDateTime": .timestamp, "id": .string, "title": .string,
        "pageTimings": .object(Shape(required: [:], optional: ["onContentLoad": .number(minimum: -1), "onLoad": .number(minimum: -1)])),
    ])
    static let log = Shape(
        required: ["version": .string, "creator": .object(creator), "entries": .array(of: .object(entry))],
        optional: ["browser": .object(creator), "pages": .array(of: .object(page))])
    static let archive = Shape(required: ["log": .object(log)])

    /// ISO 8601, as the format's schema reads it: a date, a time, optional fractions, a zone.
    static var timestampPattern: Regex<(Substring, Substring?, Substring)> { #/^\d{4}-?\d\d-?\d\dT?\d\d:?\d\d:?\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)$/# }

    struct Check {
        var problems: [String] = []

        mutating func object(_ value: JSONValue, _ path: String, shape: Shape) {
            guard case .object(let fields) = value else { return problems.append("\(path): not an object") }
            for (name, kind) in shape.required {
                guard let field = fields[name] else {
                    problems.append("\(path): '\(name)' is missing")
                    continue
                }
                self.value(field, "\(path).\(name)", kind)
            }
            for (name, field) in fields where shape.required[name] == nil {
                if let kind = shape.optional[name] {
                    self.value(field, "\(path).\(name)", kind)
                } else if name == "comment" {
                    self.value(field, "\(path).\(name)", .string)
                } else if !name.hasPrefix("_") {
                    problems.append("\(path): '\(name)' is not a HAR 1.2 field (custom fields start with '_')")
                }
            }
        }

        mutating func value(_ value: JSONValue, _ path: String, _ kind: Kind) {
            switch (kind, value) {
            case (.string, .string), (.boolean, .bool), (.optionalTimestamp, .null): return
            case (.integer, .number(let number)) where number.rounded() == number: return
            case (.number(let minimum), .number(let number)):
                if number < minimum { problems.append("\(path): \(number) is below \(minimum)") }
            case (.timestamp, .string(let text)), (.optionalTimestamp, .string(let text)):
                if text.wholeMatch(of: HARSchema.timestampPattern) == nil { problems.append("\(path): '\(text)' is not ISO 8601") }
            case (.url, .string(let text)):
                if URL(string: text)?.scheme == nil { problems.append("\(path): '\(text)' is not an absolute URL") }
            case (.object(let shape), _):
                object(value, path, shape: shape)
            case (.array(let element), .array(let items)):
                for (index, item) in items.enumerated() { self.value(item, "\(path)[\(index)]", element) }
            default:
                problems.append("\(path): \(value) is not \(kind)")
            }
        }
    }
}
