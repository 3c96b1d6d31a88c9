import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import NIOCore
import Testing

/// A tick whose key a snake_case mapping reads.
struct SnakeTick: Codable, Sendable, Equatable {
    var tickNumber: Int
}

@API
protocol Ticker {
    @GET("/script/:name")
    func events(name: String) async throws -> ServerSentEvents<Tick>

    @GET("/script/:name")
    func lines(name: String) async throws -> JSONLines<Tick>

    @GET("/script/:name")
    func sequence(name: String) async throws -> JSONSequence<Tick>
}

struct TickEvents: Endpoint {
    typealias Response = ServerSentEvents<Tick>
    var name: String
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/script/\(name)") }
}

struct TickLines: Endpoint {
    typealias Response = JSONLines<Tick>
    var name: String
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/script/\(name)") }
}

struct TickSequence: Endpoint {
    typealias Response = JSONSequence<Tick>
    var name: String
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/script/\(name)") }
}

@Suite("Typed streams: Server-Sent Events, JSON Lines and JSON text sequences as they arrive", .serialized, .timeLimit(.minutes(3)))
struct TypedStreamTests {
    /// Three events with a comment, an unknown field, an id, a type and JSON split over two
    /// `data` lines; `newline` ends every line.
    static func eventText(_ newline: String) -> String {
        [
            ": a comment", "unknown: ignored", "id: 1", "data: {\"n\":1}", "",
            "event: tick", "data: {\"n\":", "data: 2}", "", "retry: 250", "",
            "id: 3", "data: {\"n\":3}", "", "",
        ].joined(separator: newline)
    }

    @Test("An event cut at every byte offset, with LF and CRLF line ends, reads the same", arguments: TransportKind.withHTTPS)
    func everyOffset(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(5))
        for newline in ["\n", "\r\n"] {
            let text = Self.eventText(newline)
            for chunks in splits(text) {
                let name = scriptName("sse-offset", transport)
                FaultServer.script(name, [.stream(contentType: "text/event-stream", chunks: chunks)])
                let events = try await provider.send(Request(.get, "/script/\(name)", receiving: .events(Tick.self)))
                let values = try await collect(events)
                #expect(values == [Tick(n: 1), Tick(n: 2), Tick(n: 3)], "cut at \(chunks[0].utf8.count) of \(newline.debugDescription)")
            }
        }
    }

    @Test("Fields: event, id and retry come with the data; text data is kept as text", arguments: TransportKind.withHTTPS)
    func fields(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(5))
        let name = scriptName("sse-fields", transport)
        FaultServer.script(name, [.stream(contentType: "text/event-stream", chunks: [Self.eventText("\n")])])
        let events = try await provider.send(Request(.get, "/script/\(name)", receiving: .events(Tick.self)))
        let all = try await collect(events.events)
        #expect(all.map(\.event) == [nil, "tick", nil])
        #expect(all.map(\.id) == ["1", nil, "3"])
        #expect(all.map(\.data) == [Tick(n: 1), Tick(n: 2), Tick(n: 3)])

        let text = scriptName("sse-text", transport)
        FaultServer.script(text, [.stream(contentType: "text/event-stream", chunks: ["data: hello\ndata: world\n\n", "data: [DONE]\n\n", "data: after\n\n"])])
        let lines = try await collect(try await provider.send(Request(.get, "/script/\(text)", receiving: .events(String.self, terminator: "[DONE]"))))
        #expect(lines == ["hello\nworld"])
    }

    @Test("A dropped stream reconnects after the server's retry delay with Last-Event-ID, and goes on", arguments: TransportKind.withHTTPS)
    func reconnects(transport: TransportKind) async throws {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        let clock = RecordingClock()
        provider.clock = clock
        let name = scriptName("sse-reconnect", transport)
        FaultServer.script(name, [
            .stream(contentType: "text/event-stream", chunks: ["retry: 150\nid: 1\ndata: {\"n\":1}\n\n", "id: 2\ndata: {\"n\":2}\n\n"], end: .resetWhenSignalled(name)),
            .stream(contentType: "text/event-stream", chunks: ["id: 3\ndata: {\"n\":3}\n\n"]),
        ])
        let (values, failure) = await collectUntilFailure(try await provider.send(Request(.get, "/script/\(name)", receiving: .events(Tick.self)))) {
            if $0 == Tick(n: 2) { FaultServer.signal(name) }
        }
        #expect(failure == nil)
        #expect(values == [Tick(n: 1), Tick(n: 2), Tick(n: 3)])
        let arrivals = FaultServer.arrivals(ofScript: name)
        #expect(arrivals.map { $0.header("Last-Event-ID") } == [nil, "2"])
        #expect(clock.waits == [.milliseconds(150)])

        // Without reconnection the drop is the stream's error, after what arrived before it.
        let once = scriptName("sse-no-reconnect", transport)
        FaultServer.script(once, [.stream(contentType: "text/event-stream", chunks: ["data: {\"n\":1}\n\n"], end: .resetWhenSignalled(once))])
        let events = try await provider.send(Request(.get, "/script/\(once)", receiving: .events(Tick.self, reconnects: false)))
        let (seen, error) = await collectUntilFailure(events) { _ in FaultServer.signal(once) }
        #expect(seen == [Tick(n: 1)])
        #expect(error?.kind == .transport)
        #expect(FaultServer.arrivals(ofScript: once).count == 1)
    }

    @Test("Every reconnection is the same call as the first: again after a second drop, with Last-Event-ID 4, the provider's key mapping and its per-event limit", arguments: TransportKind.withHTTPS)
    func reconnectsEveryTime(transport: TransportKind) async throws {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        provider.clock = RecordingClock()
        provider.keyMapping = .snakeCase
        provider.responseBodyLimit = 256
        let name = scriptName("sse-reconnect-twice", transport)
        func event(_ id: Int) -> String { "id: \(id)\ndata: {\"tick_number\":\(id)}\n\n" }
        // Each reset comes once the event before it has been read: AsyncHTTPClient drops what it
        // has not handed over when a reset arrives (`eventsBeforeUncleanClose`), which is not this
        // test's case, and a fixed delay before the reset is not enough on a loaded machine.
        FaultServer.script(name, [
            .stream(contentType: "text/event-stream", chunks: [event(1), event(2)], end: .resetWhenSignalled("\(name)-2")),
            .stream(contentType: "text/event-stream", chunks: [event(3), event(4)], end: .resetWhenSignalled("\(name)-4")),
            .stream(contentType: "text/event-stream", chunks: [event(5), "data: {\"tick_number\":\"\(String(repeating: "x", count: 400))\"}\n\n"]),
        ])
        let events = try await provider.send(Request(.get, "/script/\(name)", receiving: .events(SnakeTick.self)))
        let (seen, error) = await collectUntilFailure(events) { FaultServer.signal("\(name)-\($0.tickNumber)") }
        #expect(seen == (1...5).map { SnakeTick(tickNumber: $0) })
        #expect(FaultServer.arrivals(ofScript: name).map { $0.header("Last-Event-ID") } == [nil, "2", "4"])
        // The third connection's long event is refused at the provider's limit, as on the first.
        #expect(error?.kind == .responseTooLarge)
    }

    @Test("Events written before an unclean close all reach the caller, in order, then the close's error", arguments: TransportKind.withHTTPS)
    func eventsBeforeUncleanClose(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(5))
        let padding = String(repeating: "x", count: 2_000)
        let events = (1...20).map { "id: \($0)\ndata: {\"n\":\($0),\"pad\":\"\(padding)\"}\n\n" }
        for run in 0..<6 {
            // A close without the last chunk, and a reset, in turn.
            let name = scriptName("sse-unclean-\(run)", transport)
            FaultServer.script(name, [.stream(contentType: "text/event-stream", chunks: events, gap: .zero, end: run % 2 == 0 ? .close : .resetOnceDelivered)])
            let stream = try await provider.send(Request(.get, "/script/\(name)", receiving: .events(Tick.self, reconnects: false)))
            let (seen, error) = await collectUntilFailure(stream)
            #expect(error?.kind == .transport)
            // On AsyncHTTPClient too, which alone hands over only a prefix (the test below):
            // Courier's clients keep the parts it holds when the close comes.
            #expect(seen == (1...20).map { Tick(n: $0) }, "run \(run): \(seen.count) of 20 events")
        }
    }

    @Test("A request queued for the only connection while its stream is reset goes out on a new one and is answered")
    func queuedBehindReset() async throws {
        var configuration = HTTPClient.Configuration.courierDefault
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
        let padding = String(repeating: "x", count: 2_000)
        let events = (1...20).map { "id: \($0)\ndata: {\"n\":\($0),\"pad\":\"\(padding)\"}\n\n" }
        try await Provider.withHTTPClient(baseURL: try await FaultServer.baseURL(), configuration: configuration) { provider in
            for run in 0..<3 {
                let name = scriptName("sse-queued-\(run)", .asyncHTTPClient)
                let after = scriptName("after-reset-\(run)", .asyncHTTPClient)
                FaultServer.script(name, [.stream(contentType: "text/event-stream", chunks: events, gap: .milliseconds(1), end: .resetOnceDelivered)])
                FaultServer.script(after, [.answer(status: 200, body: "answered")])
                let stream = try await provider.send(Request(.get, "/script/\(name)", receiving: .events(Tick.self, reconnects: false)))
                // Sent while the stream holds the one connection: it waits for it, and the reset
                // must not hand it a connection that is gone.
                async let queued = provider.send(Request(.get, "/script/\(after)", receiving: .text))
                let (seen, error) = await collectUntilFailure(stream)
                #expect(error?.kind == .transport, "run \(run)")
                #expect(seen.count == 20, "run \(run): \(seen.count) of 20 events")
                #expect(try await queued == "answered", "run \(run)")
                #expect(FaultServer.arrivals(ofScript: after).count == 1, "run \(run)")
            }
        }
    }

    @Test("AsyncHTTPClient read without Courier: the same script gives at most the 20 events, then the close's error")
    func asyncHTTPClientBeforeClose() async throws {
        let padding = String(repeating: "x", count: 2_000)
        let events = (1...20).map { "id: \($0)\ndata: {\"n\":\($0),\"pad\":\"\(padding)\"}\n\n" }
        for run in 0..<5 {
            let name = "sse-unclean-raw-\(run)-\(UUID().uuidString.prefix(8))"
            FaultServer.script(name, [.stream(contentType: "text/event-stream", chunks: events, gap: .zero, end: .close)])
            let response = try await TransportKind.client.execute(HTTPClientRequest(url: try await FaultServer.baseURL() + "/script/\(name)"), timeout: .seconds(5))
            var bytes = 0
            var failed = false
            do {
                for try await part in response.body { bytes += part.readableBytes }
            } catch {
                failed = true
            }
            // How many arrive depends on how the last reads and the close fall (here 15 of 20 on
            // an idle machine, all 20 under ThreadSanitizer's slower schedule): AsyncHTTPClient
            // 1.37 drops what it has read and not handed over when the close comes first.
            #expect(failed, "run \(run): the body ended without the close's error")
            #expect(bytes <= events.joined().utf8.count, "run \(run): \(bytes) bytes")
        }
    }

    @Test("A dropped stream does not reconnect when the provider's retry budget is spent, and says so", arguments: TransportKind.withHTTPS)
    func reconnectNeedsBudget(transport: TransportKind) async throws {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        provider.clock = RecordingClock()
        provider.retryBudget = RetryBudget(ratio: 0, minimum: 0)
        let name = scriptName("sse-spent", transport)
        FaultServer.script(name, [
            .stream(contentType: "text/event-stream", chunks: ["id: 1\ndata: {\"n\":1}\n\n"], end: .resetWhenSignalled(name)),
            .stream(contentType: "text/event-stream", chunks: ["id: 2\ndata: {\"n\":2}\n\n"]),
        ])
        let events = try await provider.send(Request(.get, "/script/\(name)", receiving: .events(Tick.self)))
        let (seen, error) = await collectUntilFailure(events) { _ in FaultServer.signal(name) }
        #expect(seen == [Tick(n: 1)])
        #expect(error?.kind == .transport)
        #expect(error?.retryStoppedBecause?.contains("budget is spent") == true, "\(String(describing: error?.retryStoppedBecause))")
        #expect(FaultServer.arrivals(ofScript: name).count == 1)
    }

    @Test("The body limit bounds each record or event, not a chunk: many small records and a heartbeat of comments pass a 64-byte limit", arguments: TransportKind.withHTTPS)
    func limitPerRecord(transport: TransportKind) async throws {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        provider.responseBodyLimit = 64
        let lines = scriptName("small-records", transport)
        FaultServer.script(lines, [.stream(contentType: "application/jsonl", chunks: [(1...30).map { "{\"n\":\($0)}\n" }.joined()])])
        let values = try await collect(try await provider.send(Request(.get, "/script/\(lines)", receiving: .jsonLines(Tick.self))))
        #expect(values == (1...30).map { Tick(n: $0) })

        let events = scriptName("heartbeat", transport)
        FaultServer.script(events, [.stream(contentType: "text/event-stream", chunks: [String(repeating: ":ping\n", count: 30) + "data: {\"n\":7}\n\n"])])
        let ticks = try await collect(try await provider.send(Request(.get, "/script/\(events)", receiving: .events(Tick.self))))
        #expect(ticks == [Tick(n: 7)])

        // One record or line past the limit still fails.
        let long = scriptName("long-record", transport)
        FaultServer.script(long, [.stream(contentType: "application/jsonl", chunks: ["{\"n\":1}\n{\"n\":\(String(repeating: "0", count: 80))1}\n"])])
        let stream = try await provider.send(Request(.get, "/script/\(long)", receiving: .jsonLines(Tick.self)))
        let (seen, error) = await collectUntilFailure(stream)
        #expect(seen == [Tick(n: 1)])
        #expect(error?.kind == .responseTooLarge)
    }

    @Test("Breaking out of the loop closes the connection at once, as the server sees", arguments: TransportKind.withHTTPS)
    func cancellationCloses(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(30))
        let name = scriptName("sse-break", transport)
        FaultServer.script(name, [.stream(contentType: "text/event-stream", chunks: ["data: {\"n\":1}\n\n"], end: .hold)])
        let events = try await provider.send(Request(.get, "/script/\(name)", receiving: .events(Tick.self)))
        for try await tick in events {
            #expect(tick == Tick(n: 1))
            break
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while FaultServer.closedConnections(ofScript: name) == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(FaultServer.closedConnections(ofScript: name) == 1)
    }

    @Test("JSON Lines and JSON text sequences cut at every byte offset read the same; blank records are skipped", arguments: TransportKind.withHTTPS)
    func lineFormats(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(5))
        let lines = "{\"n\":1}\r\n\n{\"n\":2}\n{\"n\":3}"
        for chunks in splits(lines) {
            let name = scriptName("jsonl", transport)
            FaultServer.script(name, [.stream(contentType: "application/jsonl", chunks: chunks)])
            let values = try await collect(try await provider.send(Request(.get, "/script/\(name)", receiving: .jsonLines(Tick.self))))
            #expect(values == [Tick(n: 1), Tick(n: 2), Tick(n: 3)], "cut at \(chunks[0].utf8.count)")
        }
        let sequence = "\u{1E}{\"n\":1}\n\u{1E}{\"n\":2}\n\u{1E}\u{1E}{\"n\":3}\n"
        for chunks in splits(sequence) {
            let name = scriptName("json-seq", transport)
            FaultServer.script(name, [.stream(contentType: "application/json-seq", chunks: chunks)])
            let values = try await collect(try await provider.send(Request(.get, "/script/\(name)", receiving: .jsonSequence(Tick.self))))
            #expect(values == [Tick(n: 1), Tick(n: 2), Tick(n: 3)], "cut at \(chunks[0].utf8.count)")
        }
        // A record that is not the type is a decoding error naming it.
        let bad = scriptName("jsonl-bad", transport)
        FaultServer.script(bad, [.stream(contentType: "application/jsonl", chunks: ["{\"n\":1}\n{\"m\":2}\n"])])
        let stream = try await provider.send(Request(.get, "/script/\(bad)", receiving: .jsonLines(Tick.self)))
        let error = await #expect(throws: CourierError.self) { _ = try await collect(stream) }
        #expect(error?.kind == .decoding)
        #expect(error?.description.contains("{\"m\":2}") == true)
    }

    @Test("Every front-end returns typed streams: @API, Endpoint, fluent", arguments: TransportKind.withHTTPS)
    func frontEnds(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(5))
        let api = TickerAPI(provider: provider)
        let events = "data: {\"n\":1}\n\ndata: {\"n\":2}\n\n"
        let lines = "{\"n\":1}\n{\"n\":2}\n"
        let cases: [(String, String, String, @Sendable (String) async throws -> [Tick])] = [
            ("@API events", "text/event-stream", events, { try await collect(try await api.events(name: $0)) }),
            ("@API lines", "application/jsonl", lines, { try await collect(try await api.lines(name: $0)) }),
            ("@API sequence", "application/json-seq", "\u{1E}{\"n\":1}\n\u{1E}{\"n\":2}\n", { try await collect(try await api.sequence(name: $0)) }),
            ("Endpoint events", "text/event-stream", events, { try await collect(try await provider.send(TickEvents(name: $0))) }),
            ("Endpoint lines", "application/jsonl", lines, { try await collect(try await provider.send(TickLines(name: $0))) }),
            ("Endpoint sequence", "application/json-seq", "\u{1E}{\"n\":1}\n\u{1E}{\"n\":2}\n", { try await collect(try await provider.send(TickSequence(name: $0))) }),
            ("fluent lines", "application/jsonl", lines, { try await collect(try await provider.send(Request(.get, "/script/\($0)", receiving: .jsonLines(Tick.self)))) }),
            ("fluent sequence", "application/json-seq", "\u{1E}{\"n\":1}\n\u{1E}{\"n\":2}\n", {
                try await collect(try await provider.send(Request(.get, "/script/\($0)", receiving: .jsonSequence(Tick.self))))
            }),
            ("fluent events", "text/event-stream", events, { try await collect(try await provider.send(Request(.get, "/script/\($0)", receiving: .events(Tick.self)))) }),
        ]
        for (label, contentType, body, call) in cases {
            let name = scriptName("front-end-stream", transport)
            FaultServer.script(name, [.stream(contentType: contentType, chunks: [body])])
            #expect(try await call(name) == [Tick(n: 1), Tick(n: 2)], "\(label)")
            let accept = FaultServer.arrivals(ofScript: name).first?.header("Accept")
            #expect(accept?.contains(contentType) == true, "\(label): Accept \(accept ?? "none")")
        }
    }
}
