import Courier
import CourierTestSupport
@testable import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// `ArchiveTransport` recording sessions against the fault server on both transports — a redirect,
/// a retry, an event stream, secrets, calls from all three front-ends — into HAR 1.2 archives that pass the format's schema, and
/// replaying them with no server: the same results, at the recorded pace.
@Suite("Recording and replaying HTTP Archives", .timeLimit(.minutes(2)))
struct ArchiveRecordingTests {
    struct Book: Codable, Equatable, Sendable {
        var id: Int
        var title: String
    }

    struct Tick: Codable, Equatable, Sendable {
        var n: Int
    }

    /// What a session's calls returned.
    struct Outcome: Equatable {
        var moved: [Book]
        var retried: Book
        var retriedStatus: Int
        var ticks: [Tick]
        var login: Book
        var cookieSentBack: Bool
        /// The books again, through an `@API` client and an `Endpoint` struct.
        var otherFrontEnds: [String]
    }

    static let events = ["data: {\"n\":1}\n\n", "data: {\"n\":2}\n\n", "data: {\"n\":3}\n\n"]

    /// Scripts the session's routes on the fault server under `name`.
    static func script(_ name: String) {
        FaultServer.script("\(name)-old", [.answer(status: 302, headers: [("Location", "/script/\(name)-books")])])
        FaultServer.script("\(name)-books", [.answer(status: 200, headers: [("Content-Type", "application/json")], body: #"[{"id":1,"title":"Dune"}]"#)])
        FaultServer.script("\(name)-flaky", [
            .answer(status: 503, headers: [("Retry-After", "0")], body: "busy"),
            .answer(status: 200, headers: [("Content-Type", "application/json")], body: #"{"id":2,"title":"Emma"}"#),
        ])
        FaultServer.script("\(name)-events", [.stream(contentType: "text/event-stream", chunks: events, gap: .milliseconds(150))])
        FaultServer.script("\(name)-login", [
            .answer(status: 200, headers: [("Content-Type", "application/json"), ("Set-Cookie", "session=opaque-42; Path=/")], body: #"{"id":3,"title":"Ulysses"}"#),
        ])
        FaultServer.script("\(name)-me", [.answer(status: 204)])
    }

    /// The session: a redirect, a retried 503, an event stream, a login with secrets whose cookie
    /// the next call sends back.
    static func run(_ provider: Provider, _ name: String) async throws -> Outcome {
        let moved = try await provider.send(Request(.get, "/script/\(name)-old", receiving: .json([Book].self)))
        let (retried, response) = try await provider.send(Request(.get, "/script/\(name)-flaky", receiving: .withResponse(.json(Book.self))))
        let ticks = try await collect(try await provider.send(Request(.get, "/script/\(name)-events", receiving: .events(Tick.self))))
        let login = try await provider.send(
            Request(.post, "/script/\(name)-login", receiving: .json(Book.self))
                .query("token", "t0ken-secret").query("page", "1")
                .header(.authorization, "Bearer s3cret")
                .header(try #require(HTTPField.Name("X-Api-Key")), "k3y-secret")
                .body(.json(["user": "ada"])))
        let me = try await provider.send(Request(.get, "/script/\(name)-me", receiving: .withResponse(.data)))
        let viaAPI = try await FlakyAPI(provider: provider).fetchOnce(name: "\(name)-books")
        let viaEndpoint = try await provider.send(FlakyEndpoint(name: "\(name)-books"))
        return Outcome(
            moved: moved, retried: retried, retriedStatus: response.status.code, ticks: ticks, login: login,
            cookieSentBack: me.1.status.code == 204, otherFrontEnds: [viaAPI, viaEndpoint])
    }

    static func provider(_ transport: any ClientTransport) async throws -> Provider {
        var provider = Provider(baseURL: try await FaultServer.baseURL(), transport: transport)
        // Room for a slow machine: a stream that stalls past the idle bound would reconnect, and
        // the session would have an exchange more than it should.
        provider.timeouts.idle = .seconds(20)
        provider.retryPolicy = RetryPolicy(maxAttempts: 2, jitter: .none)
        provider.clock = RecordingClock()
        return provider.with(cookieJar: CookieJar())
    }

    static func file(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-archives-\(UUID().uuidString)").appendingPathComponent("\(name).har")
    }

    @Test("A session recorded on each transport — a redirect, a retry, a stream — replays offline with the same results", arguments: TransportKind.allCases)
    func recordThenReplay(transport: TransportKind) async throws {
        let name = scriptName("har", transport)
        Self.script(name)
        let file = Self.file(name)
        let recorder = try ArchiveTransport(
            archive: file, mode: .record, upstream: transport.transport, secrets: [try #require(HTTPField.Name("X-Api-Key"))],
            secretQueryItems: ["token"])
        let recorded = try await Self.run(try await Self.provider(recorder), name)
        #expect(recorded == Outcome(
            moved: [Book(id: 1, title: "Dune")], retried: Book(id: 2, title: "Emma"), retriedStatus: 200,
            ticks: [Tick(n: 1), Tick(n: 2), Tick(n: 3)], login: Book(id: 3, title: "Ulysses"), cookieSentBack: true,
            otherFrontEnds: Array(repeating: #"[{"id":1,"title":"Dune"}]"#, count: 2)))
        #expect(FaultServer.arrivals(ofScript: "\(name)-flaky").count == 2)
        // The cookie the login set went back to the server, so the jar saw it in the clear.
        #expect(FaultServer.arrivals(ofScript: "\(name)-me").first?.header("Cookie") == "session=opaque-42")

        // Each hop and each attempt is an entry; the archive is HAR 1.2 and holds no secret.
        let data = try Data(contentsOf: file)
        #expect(HARSchema.problems(in: data) == [])
        let archive = try JSONDecoder().decode(HTTPArchive.self, from: data)
        #expect(archive.log.entries.map(\.response.status) == [302, 200, 503, 200, 200, 200, 204, 200, 200])
        #expect(archive.log.entries[0].response.redirectURL == "/script/\(name)-books")
        let text = String(decoding: data, as: UTF8.self)
        for secret in ["s3cret", "k3y-secret", "t0ken-secret", "opaque-42"] { #expect(!text.contains(secret), "\(secret) was recorded") }
        let login = archive.log.entries[5]
        #expect(login.request.headers.filter { ["authorization", "x-api-key"].contains($0.name.lowercased()) }.map(\.value) == ["<redacted>", "<redacted>"])
        #expect(login.request.queryString == [.init(name: "token", value: "<redacted>"), .init(name: "page", value: "1")])
        #expect(login.request.postData?.text == #"{"user":"ada"}"#)
        #expect(login.response.headers.first { $0.name.lowercased() == "set-cookie" }?.value == "<redacted>")
        #expect(archive.log.entries[6].request.headers.first { $0.name.lowercased() == "cookie" }?.value == "<redacted>")
        // The stream's chunks and their pace are kept.
        let stream = try #require(archive.log.entries[4].response.content.chunks)
        #expect(!stream.isEmpty && stream.reduce(0) { $0 + $1.size } == Self.events.joined().utf8.count, "\(stream)")
        #expect(stream.map(\.time) == stream.map(\.time).sorted(), "\(stream)")
        let streamTook = Duration.milliseconds(stream.last?.time ?? 0)

        // Replayed with no server: the upstream transport is never asked, the server sees nothing.
        let tripwire = RecordingTransport()
        let replay = try ArchiveTransport(archive: file, mode: .replay, upstream: tripwire, secretQueryItems: ["token"])
        #expect(replay.unusedEntries.count == 9)
        let started = ContinuousClock.now
        let replayed = try await Self.run(try await Self.provider(replay), name)
        let took = ContinuousClock.now - started
        #expect(replayed == recorded)
        #expect(replay.unusedEntries.isEmpty)
        #expect(tripwire.count == 0)
        #expect(FaultServer.arrivals(ofScript: "\(name)-flaky").count == 2)
        #expect(FaultServer.arrivals(ofScript: "\(name)-events").count == 1)
        // The events came at their recorded pace: the replay took at least as long as they did.
        #expect(took >= streamTook, "\(took) against \(streamTook)")

        // Once replayed, a further request has no entry, and the error names the closest.
        let again = await #expect(throws: CourierError.self) {
            try await Self.provider(replay).send(Request(.get, "/script/\(name)-books", receiving: .data).query("page", "2"))
        }
        #expect(again?.kind == .unmocked)
        #expect(again?.message.contains("the closest is GET http://127.0.0.1:") == true, "\(String(describing: again))")
        #expect(again?.message.contains("/script/\(name)-books, which differs in query (none)") == true, "\(String(describing: again))")
    }

    @Test("A recorded stream arrives chunk by chunk at its pace, or at once when timing is off")
    func streamTiming() async throws {
        let name = scriptName("har-timing", .asyncHTTPClient)
        FaultServer.script(name, [.stream(contentType: "text/event-stream", chunks: Self.events, gap: .milliseconds(200))])
        let file = Self.file(name)
        let recording = try await Self.provider(try ArchiveTransport(archive: file, mode: .record, upstream: TransportKind.asyncHTTPClient.transport))
        let recorded = try await collect(try await recording.send(Request(.get, "/script/\(name)", receiving: .events(Tick.self))))
        #expect(recorded == [Tick(n: 1), Tick(n: 2), Tick(n: 3)])

        let chunks = try #require(try JSONDecoder().decode(HTTPArchive.self, from: Data(contentsOf: file)).log.entries.first?.response.content.chunks)
        #expect(chunks.reduce(0) { $0 + $1.size } == Self.events.joined().utf8.count, "\(chunks)")

        let paced = try await Self.provider(try ArchiveTransport(archive: file))
        let sent = ContinuousClock.now
        var arrivals: [Duration] = []
        for try await _ in try await paced.send(Request(.get, "/script/\(name)", receiving: .events(Tick.self))) { arrivals.append(.now - sent) }
        #expect(arrivals.count == 3)
        // A chunk is never handed over before its recorded time: the last event, in the last
        // chunk, comes no sooner than that chunk did when recorded.
        #expect((arrivals.last ?? .zero) >= .milliseconds(chunks.last?.time ?? 0), "\(arrivals) against \(chunks)")
        // Each replay takes the archive's one entry: a transport of its own for each.
        let pacedAgain = try await Self.provider(try ArchiveTransport(archive: file))
        let (_, streamed) = try await pacedAgain.send(Request(.get, "/script/\(name)", receiving: .withResponse(.data)))
        #expect(streamed.headers[.contentLength] == nil)

        let atOnce = try await Self.provider(try ArchiveTransport(archive: file, replayingTiming: false))
        let (body, whole) = try await atOnce.send(Request(.get, "/script/\(name)", receiving: .withResponse(.data)))
        #expect(body == Data(Self.events.joined().utf8))
        #expect(whole.headers[.contentLength] == String(body.count))
        #expect(FaultServer.arrivals(ofScript: name).count == 1)
    }

    @Test("Replay what exists, record what is missing: only new requests reach the server, and join the archive", arguments: TransportKind.allCases)
    func replayOrRecord(transport: TransportKind) async throws {
        let name = scriptName("har-mixed", transport)
        Self.script(name)
        let file = Self.file(name)
        let first = try ArchiveTransport(archive: file, mode: .replayOrRecord, upstream: transport.transport)
        let books = try await Self.provider(first).send(Request(.get, "/script/\(name)-books", receiving: .json([Book].self)))
        #expect(books == [Book(id: 1, title: "Dune")])
        #expect(FaultServer.arrivals(ofScript: "\(name)-books").count == 1)

        let second = try ArchiveTransport(archive: file, mode: .replayOrRecord, upstream: transport.transport)
        #expect(try await Self.provider(second).send(Request(.get, "/script/\(name)-books", receiving: .json([Book].self))) == books)
        #expect(FaultServer.arrivals(ofScript: "\(name)-books").count == 1)
        let moved = try await Self.provider(second).send(Request(.get, "/script/\(name)-old", receiving: .json([Book].self)))
        #expect(moved == books)
        // The redirect had no entry: it went to the server and joined the archive, and so did its
        // hop to the books, whose one entry had been used.
        #expect(FaultServer.arrivals(ofScript: "\(name)-old").count == 1)
        #expect(FaultServer.arrivals(ofScript: "\(name)-books").count == 2)

        let data = try Data(contentsOf: file)
        #expect(HARSchema.problems(in: data) == [])
        let replay = try ArchiveTransport(archive: file, upstream: RecordingTransport())
        #expect(replay.unusedEntries.count == 3)
    }

    @Test("Binary bodies are kept in base64 both ways, and replay byte for byte with bodies matched", arguments: TransportKind.allCases)
    func binaryBodies(transport: TransportKind) async throws {
        let file = Self.file("binary")
        var recording = try await transport.provider()
        recording.transport = try ArchiveTransport(archive: file, mode: .record, upstream: transport.transport)
        let upload = Data([0xFF, 0x00, 0xFE, 0x80, 0x41])
        let bytes = try await recording.send(Request(.get, "/bytes", receiving: .data))
        let digest = try await recording.send(Request(.post, "/digest", receiving: .data).body(.data(upload, contentType: "application/octet-stream")))
        #expect(bytes == Data([0, 1, 2, 255]))

        let data = try Data(contentsOf: file)
        #expect(HARSchema.problems(in: data) == [])
        let archive = try JSONDecoder().decode(HTTPArchive.self, from: data)
        #expect(archive.log.entries[0].response.content.encoding == "base64")
        #expect(archive.log.entries[1].request.postData?.encoding == "base64")
        #expect(archive.log.entries[1].request.bodySize == upload.count)

        var replaying = recording
        let replay = try ArchiveTransport(archive: file, matchingBodies: true)
        replaying.transport = replay
        #expect(try await replaying.send(Request(.get, "/bytes", receiving: .data)) == bytes)
        let other = await #expect(throws: CourierError.self) {
            try await replaying.send(Request(.post, "/digest", receiving: .data).body(.data(Data([1]), contentType: "application/octet-stream")))
        }
        #expect(other?.message.contains("which differs in body") == true, "\(String(describing: other))")
        #expect(try await replaying.send(Request(.post, "/digest", receiving: .data).body(.data(upload, contentType: "application/octet-stream"))) == digest)
    }

    @Test("The file always holds the last complete archive: an exchange still running is not in it, and concurrent writers never tear it")
    func atomicWrites() async throws {
        let name = scriptName("har-atomic", .asyncHTTPClient)
        FaultServer.script("\(name)-held", [.stream(contentType: "text/event-stream", chunks: [Self.events[0]], end: .hold)])
        Self.script(name)
        let file = Self.file(name)
        let recorder = try ArchiveTransport(archive: file, mode: .record, upstream: TransportKind.asyncHTTPClient.transport)
        let provider = try await Self.provider(recorder)
        _ = try await provider.send(Request(.get, "/script/\(name)-books", receiving: .data))

        // A stream that never ends: its entry is not written while it runs, and the file still
        // reads, with what ended before it.
        let held = try await provider.send(Request(.get, "/script/\(name)-held", receiving: .events(Tick.self)))
        var iterator = held.makeAsyncIterator()
        #expect(try await iterator.next() == Tick(n: 1))
        #expect(try JSONDecoder().decode(HTTPArchive.self, from: Data(contentsOf: file)).log.entries.count == 1)

        // Many exchanges ending at once, the file read all the while: every read is whole.
        let reader = Task {
            var reads = 0
            var counts: [Int] = []
            while !Task.isCancelled {
                let archive = try JSONDecoder().decode(HTTPArchive.self, from: Data(contentsOf: file))
                counts.append(archive.log.entries.count)
                reads += 1
                try? await Task.sleep(for: .milliseconds(1))
            }
            return (reads, counts)
        }
        try await withThrowingTaskGroup { group in
            for _ in 0..<16 {
                group.addTask { _ = try await provider.send(Request(.get, "/script/\(name)-me", receiving: .data)) }
            }
            try await group.waitForAll()
        }
        reader.cancel()
        let (reads, counts) = try await reader.value
        #expect(reads > 0)
        #expect(counts == counts.sorted(), "an older archive replaced a newer one: \(counts)")
        #expect(try JSONDecoder().decode(HTTPArchive.self, from: Data(contentsOf: file)).log.entries.count == 17)
        #expect(HARSchema.problems(in: try Data(contentsOf: file)) == [])
    }

    @Test("The mode comes from COURIER_ARCHIVE_MODE when set; a value that is no mode is an error naming it")
    func modeFromEnvironment() throws {
        let file = Self.file("mode")
        #expect(try ArchiveTransport.mode(.replay, environment: [:], file: file) == .replay)
        #expect(try ArchiveTransport.mode(.replay, environment: ["COURIER_ARCHIVE_MODE": "record"], file: file) == .record)
        #expect(try ArchiveTransport.mode(.record, environment: ["COURIER_ARCHIVE_MODE": "replayOrRecord"], file: file) == .replayOrRecord)
        let error = #expect(throws: HTTPArchiveError.self) {
            try ArchiveTransport.mode(.replay, environment: ["COURIER_ARCHIVE_MODE": "rec"], file: file)
        }
        #expect(error?.description.contains("COURIER_ARCHIVE_MODE is 'rec', which is none of replay, record, replayOrRecord") == true, "\(String(describing: error))")
        // Replaying an archive that does not exist is an error naming the file.
        let missing = #expect(throws: HTTPArchiveError.self) { try ArchiveTransport(archive: file) }
        #expect(missing?.description.contains(file.path) == true)
    }

    @Test("The schema check finds what a HAR 1.2 archive must not lack")
    func schemaCheckFails() throws {
        let broken = #"{"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [{"startedDateTime": "yesterday", "time": -3, "request": {"method": "GET", "url": "/relative", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [], "queryString": [], "headersSize": -1, "bodySize": 0.5}, "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [{"name": "A"}], "content": {"size": 0, "mimeType": ""}, "redirectURL": "", "headersSize": -1, "bodySize": 0, "extra": 1}, "cache": {}}]}}"#
        let problems = HARSchema.problems(in: Data(broken.utf8))
        #expect(Set(problems) == [
            "$.log.entries[0]: 'timings' is missing",
            "$.log.entries[0].startedDateTime: 'yesterday' is not ISO 8601",
            "$.log.entries[0].time: -3.0 is below 0.0",
            "$.log.entries[0].request.url: '/relative' is not an absolute URL",
            "$.log.entries[0].request.bodySize: number(0.5) is not integer",
            "$.log.entries[0].response.headers[0]: 'value' is missing",
            "$.log.entries[0].response: 'extra' is not a HAR 1.2 field (custom fields start with '_')",
        ], "\(problems)")
        #expect(HARSchema.problems(in: try Data(contentsOf: ReplayTransportTests.mitmproxy)) == [])
    }
}
