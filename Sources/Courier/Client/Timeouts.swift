/// How long a request may wait: to connect, for the next byte, and in all.
///
/// A provider's ``Provider/timeouts`` apply to every request it sends; a request overrides any
/// of them — the fluent ``Request/timeouts(_:)``, an `@API` function's or protocol's
/// `@Timeouts(...)`, an ``Endpoint``'s ``Endpoint/timeouts``, or a modifier setting
/// ``RequestBuilder/timeouts``. A `nil` bound in a request's timeouts keeps the provider's.
///
/// ```swift
/// var provider = Provider(baseURL: "https://api.example.com")
/// provider.timeouts.total = .seconds(20)
/// let report = Request(.get, "/reports/latest", receiving: .data).timeouts(.init(idle: .seconds(120)))
/// ```
///
/// - ``connect``: the most time to open a connection, on AsyncHTTPClient (URLSession has no
///   separate bound; ``idle`` covers connecting there).
/// - ``idle``: the most time without a byte of the response, before its head and between chunks
///   of its body, streamed bodies included. On URLSession it is the request's
///   `timeoutInterval`, which also bounds a stalled upload.
/// - ``total``: the most time for the whole exchange — head and body — of a buffered response,
///   and up to the head of a streamed one, whose reader decides how long it reads.
///
/// The defaults, ``standard``, make a hang impossible on Courier's transports: a server that
/// stops sending fails the call after 30 seconds, whatever it has sent before. An exceeded bound
/// is ``CourierError/Kind/timeout``. A transport of your own applies only ``total``, which
/// Courier enforces itself; ``connect`` and ``idle`` are for the transport to honour.
public struct Timeouts: Sendable, Hashable {
    /// The most time to open a connection; `nil` keeps the provider's (or, on a provider, the
    /// transport's own).
    public var connect: Duration?
    /// The most time without receiving a byte; `nil` keeps the provider's.
    public var idle: Duration?
    /// The most time for the whole exchange; `nil` keeps the provider's, which is none.
    public var total: Duration?

    /// Bounds to apply; leave out the ones to keep.
    public init(connect: Duration? = nil, idle: Duration? = nil, total: Duration? = nil) {
        self.connect = connect
        self.idle = idle
        self.total = total
    }

    /// A provider's default: 10 seconds to connect, 30 seconds without a byte, no total bound.
    public static let standard = Timeouts(connect: .seconds(10), idle: .seconds(30), total: nil)

    /// These bounds with every one that `overrides` sets replaced by it.
    func overridden(by overrides: Timeouts) -> Timeouts {
        Timeouts(connect: overrides.connect ?? connect, idle: overrides.idle ?? idle, total: overrides.total ?? total)
    }

    /// Whether no bound is set: nothing to override.
    var isEmpty: Bool { connect == nil && idle == nil && total == nil }
}
