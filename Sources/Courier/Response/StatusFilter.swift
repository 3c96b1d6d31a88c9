import Foundation

/// Decides for which statuses a response body is read, and whether an empty body is allowed.
///
/// Conform to write your own and use it as `@ResponseBody(strategy: MyStrategy.self)`.
public protocol ResponseStatusStrategy: SendableMetatype {
    /// Whether the body is read for `status`.
    static func accepts(status: Int) -> Bool
    /// Whether an empty body reads as `nil` (rather than failing) for `status`.
    static func allowsEmptyBody(for status: Int) -> Bool
}

extension ResponseStatusStrategy {
    /// Allows an empty body for `204 No Content` and `205 Reset Content` only.
    public static func allowsEmptyBody(for status: Int) -> Bool { status == 204 || status == 205 }
}

/// The statuses a body is read for: ``success`` and ``failure``, as
/// ``Response/decodeBody(_:decoder:when:)`` takes them. `@ResponseBody(status:statuses:strategy:)`
/// and `@ResponseErrorBody` name any other set of statuses.
public struct StatusFilter: Sendable {
    let accepts: @Sendable (Int) -> Bool
    let allowsEmpty: @Sendable (Int) -> Bool

    /// 200–399, as success bodies are read.
    public static let success = StatusFilter(accepts: { (200..<400).contains($0) }, allowsEmpty: { _ in true })
    /// 400 and above, as error bodies are read.
    public static let failure = StatusFilter(accepts: { $0 >= 400 }, allowsEmpty: { _ in true })

    /// For generated code (`statuses:` and `status:`): any of `statuses`, a range (`400..<500`),
    /// a list (`[200, 201]`) or one (`[201]`).
    public static func __statuses(_ statuses: some Sequence<Int>) -> StatusFilter {
        let set = Set(statuses)
        return StatusFilter(accepts: { set.contains($0) }, allowsEmpty: { _ in true })
    }

    /// For generated code (`strategy:`): whatever `strategy` decides.
    public static func __strategy<S: ResponseStatusStrategy>(_ strategy: S.Type) -> StatusFilter {
        StatusFilter(accepts: { S.accepts(status: $0) }, allowsEmpty: { S.allowsEmptyBody(for: $0) })
    }
}

extension Response {
    /// The body decoded as `T` when `filter` accepts the status; `nil` otherwise, or when the body
    /// is empty. A `String` is read as text in the response's charset — or, from a JSON response whose
    /// body is a JSON string, as that string — and `Data` as the raw bytes.
    public func decodeBody<T: Decodable>(_ type: T.Type, decoder: any BodyDecoder, when filter: StatusFilter) throws(CourierError) -> T? {
        let code = head.status.code
        guard filter.accepts(code) else { return nil }
        guard let body else {
            if filter.allowsEmpty(code) { return nil }
            throw CourierError(.emptyBody(expected: "\(T.self)"), response: self)
        }
        if T.self == String.self { return try ResponseDecoding.string(from: body, response: self) as? T }
        if T.self == Data.self { return body as? T }
        return try ResponseDecoding.decode(T.self, from: body, using: decoder, response: self)
    }

    /// For generated code: the body decoded as `T`, which must be there: a status `filter` does
    /// not accept fails with ``CourierError/Kind/status``, an empty body with
    /// ``CourierError/Kind/decoding``.
    public func __requireBody<T: Decodable>(_ type: T.Type, decoder: any BodyDecoder, when filter: StatusFilter) throws(CourierError) -> T {
        guard filter.accepts(head.status.code) else {
            throw CourierError(.status(head.status), response: self)
        }
        guard let value = try decodeBody(T.self, decoder: decoder, when: filter) else {
            throw CourierError(.emptyBody(expected: "\(T.self)"), response: self)
        }
        return value
    }
}
