package import Courier
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A transport for tests that records exchanges into an HTTP Archive (HAR 1.2) and answers
/// requests from one — recorded by Courier, by a browser's developer tools, or by a proxy such as
/// mitmproxy — without a network.
///
/// Record a session once against a real server, commit the file, and replay it in every test run:
///
/// ```swift
/// let archive = try ArchiveTransport(archive: fixtures.appendingPathComponent("books.har"), mode: .replay)
/// let provider = Provider(baseURL: "https://api.example.com", transport: archive)
/// ```
///
/// Run the suite with `COURIER_ARCHIVE_MODE=record` (or `replayOrRecord`) to refresh the archives
/// against the server: the variable, when set, overrides the mode given in code.
///
/// **Recording.** Every exchange with the upstream transport is an entry of its own — each
/// redirect hop and each retry attempt — written when its body has been read. The file is rewritten
/// atomically as each entry ends, so that it always holds the last complete archive. Secrets are
/// redacted as Courier's cURL renderer (`RawRequest.cURL(secrets:revealing:)`) redacts them — `Authorization`,
/// `Cookie`, `Proxy-Authorization` and the headers in `secrets` — and so are `Set-Cookie` and the
/// query items named in `secretQueryItems`. Bodies that are not UTF-8 are kept in base64. An
/// attempt that got no response is not recorded.
///
/// **Replaying.** A request is answered by the first unused entry with its method, path and query
/// (the query's order aside; a query item recorded redacted matches any value), and, with
/// `matchingBodies`, its body; repeated identical requests take their entries in the order
/// recorded. A request no entry answers fails with `CourierError.Kind.unmocked`, naming the
/// closest entry and what differs from it. A streamed body (Server-Sent Events, JSON Lines, JSON
/// sequences) that Courier recorded arrives chunk by chunk at its recorded pace, unless
/// `replayingTiming` is `false`. ``unusedEntries`` lists what no request asked for.
public final class ArchiveTransport: ClientTransport {
    /// Where answers come from.
    public enum Mode: String, Sendable, CaseIterable {
        /// From the archive only; a request it has no entry for fails, and nothing reaches a network.
        case replay
        /// From the upstream transport, every exchange written to a new archive.
        case record
        /// From the archive where it has an entry; the rest from the upstream transport, added to it.
        case replayOrRecord
    }

    private let store: ArchiveStore
    private let mode: Mode
    private let upstream: any ClientTransport
    private let replayingTiming: Bool

    /// A transport on the archive at `url`.
    ///
    /// - Parameters:
    ///   - url: The archive's file: read in the replay modes, written in the record modes.
    ///   - mode: Where answers come from; `COURIER_ARCHIVE_MODE`, when set, overrides it.
    ///   - upstream: The transport that records send through; the platform's default when `nil`.
    ///   - matchingBodies: Whether a request's body must match its entry's too.
    ///   - replayingTiming: Whether a recorded stream arrives at its recorded pace, or at once.
    ///   - secrets: Headers recorded as `<redacted>`, beside the ones always redacted.
    ///   - revealing: Headers recorded as they are, even though they are secret.
    ///   - secretQueryItems: Query items whose values are recorded as `<redacted>`.
    /// - Throws: An `HTTPArchiveError` naming the file when it cannot be read (in replay modes) or
    ///   its folder cannot be made (in record modes), or naming the variable when
    ///   `COURIER_ARCHIVE_MODE` holds no mode.
    public convenience init(
        archive url: URL, mode: Mode = .replay, upstream: (any ClientTransport)? = nil, matchingBodies: Bool = false,
        replayingTiming: Bool = true, secrets: Set<HTTPField.Name> = [], revealing: Set<HTTPField.Name> = [],
        secretQueryItems: Set<String> = []
    ) throws(HTTPArchiveError) {
        let mode = try Self.mode(mode, environment: ProcessInfo.processInfo.environment, file: url)
        let entries: [HTTPArchive.Entry]
        switch mode {
        case .replay:
            entries = try HTTPArchive(contentsOf: url).log.entries
        case .replayOrRecord where FileManager.default.fileExists(atPath: url.path):
            entries = try HTTPArchive(contentsOf: url).log.entries
        case .record, .replayOrRecord:
            entries = []
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw HTTPArchiveError(file: url, "cannot be recorded: its folder cannot be made: \(error.localizedDescription)")
            }
        }
        // A query item an archive holds redacted matches any value, and stays redacted.
        let redacted = entries.flatMap { entry in
            (URLComponents(string: entry.request.url)?.queryItems ?? []).filter { $0.value == Redaction.mark }.map(\.name)
        }
        let redaction = Redaction(secrets: secrets, revealing: revealing, queryItems: secretQueryItems.union(redacted))
        let store = ArchiveStore(file: url, entries: entries, matchingBodies: matchingBodies, redaction: redaction)
        self.init(store: store, mode: mode, upstream: upstream ?? Provider.defaultTransport, replayingTiming: replayingTiming)
    }

    init(store: ArchiveStore, mode: Mode, upstream: any ClientTransport, replayingTiming: Bool) {
        self.store = store
        self.mode = mode
        self.upstream = upstream
        self.replayingTiming = replayingTiming
    }

    /// `given`, unless `environment` names another mode in `COURIER_ARCHIVE_MODE`.
    static func mode(_ given: Mode, environment: [String: String], file: URL) throws(HTTPArchiveError) -> Mode {
        guard let value = environment["COURIER_ARCHIVE_MODE"], !value.isEmpty else { return given }
        guard let mode = Mode.allCases.first(where: { $0.rawValue.lowercased() == value.lowercased() }) else {
            let modes = Mode.allCases.map(\.rawValue).joined(separator: ", ")
            throw HTTPArchiveError(file: file, "cannot be opened: COURIER_ARCHIVE_MODE is '\(value)', which is none of \(modes)")
        }
        return mode
    }

    /// The entries no request has used yet, as `METHOD URL`, in the order recorded: a test that
    /// expects every recorded exchange to happen checks that this is empty. Entries recorded by
    /// this transport count as used.
    public var unusedEntries: [String] { store.unused }

    /// Answers `request` from the archive, or records it, as the mode says.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if mode == .record {
            return try await ArchiveRecorder.send(request, body: body, baseURL: baseURL, operationID: operationID, through: upstream, into: store)
        }
        // The body is read only when it is matched on.
        var sent = body
        var bytes: Data?
        if store.matchingBodies {
            let read = if let body { try await Data(collecting: body, upTo: .max) } else { Data() }
            bytes = read
            sent = body.map { _ in HTTPBody(read) }
        }
        // Matched as an archive entry is: the path and query of the absolute URL (the key redacts).
        let components = URLComponents(string: ArchiveRecorder.absoluteURL(of: request, baseURL: baseURL))
        let wanted = ArchiveKey(
            method: request.method.rawValue,
            target: (components?.percentEncodedPath ?? "/") + (components?.percentEncodedQuery.map { "?" + $0 } ?? ""),
            body: bytes, redaction: store.redaction)
        if let entry = store.take(wanted) {
            return try ArchiveReplay.answer(entry, pacing: replayingTiming, operationID: operationID)
        }
        guard mode == .replayOrRecord else {
            throw CourierError.unmocked(operationID, detail: store.miss(wanted))
        }
        return try await ArchiveRecorder.send(request, body: sent, baseURL: baseURL, operationID: operationID, through: upstream, into: store)
    }
}

extension ArchiveTransport: BoundableTransport {
    /// The same archive, its upstream transport bounded as a provider asks, when it can be.
    package func bounded(by timeouts: Timeouts, bodyLimit: Int) -> any ClientTransport {
        guard mode != .replay, let boundable = upstream as? any BoundableTransport else { return self }
        return ArchiveTransport(store: store, mode: mode, upstream: boundable.bounded(by: timeouts, bodyLimit: bodyLimit), replayingTiming: replayingTiming)
    }
}
