import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// A server that misbehaves on purpose (``FaultServer``), on both transports: each case asserts
/// the error kind, an upper bound on its time and on the growth of resident memory, and runs
/// under its own deadline. README's "Reliability" table lists the same faults.
///
/// Serialized, so that one case's memory does not show up in another's peak.
@Suite("Fault injection: a hostile server on both transports", .serialized, .timeLimit(.minutes(3)))
struct FaultInjectionTests {
    /// The most resident memory a hostile body may add — measured for the whole process, so
    /// suites running beside this one count too. URLSession hands data to its delegate queue as
    /// fast as libcurl reads it and what is queued when Courier cancels the task still arrives,
    /// so on a loopback connection it holds more than AsyncHTTPClient. (Before these bounds, an
    /// endless body took gigabytes on URLSession.) Under ThreadSanitizer, whose shadow memory
    /// multiplies what the process holds, every bound is scaled by `memoryScale`.
    static func memoryBound(_ transport: TransportKind, plus extra: Int = 0) -> Int {
        ((transport == .asyncHTTPClient ? 192 << 20 : 384 << 20) + extra) * memoryScale
    }

    /// Reads each of `paths` whole: each fails as `kind` in less than `bound`, under a deadline
    /// of twice the bound, with resident memory up by less than `memory` bytes when given (a
    /// case that waits for seconds also sees what other suites allocate meanwhile).
    func expectEach(
        _ paths: [String],
        on provider: Provider,
        toFailAs kind: CourierError.Kind,
        within bound: Duration,
        memory: Int? = 64 << 20,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        for path in paths {
            let outcome = await fault(within: bound * 2, sourceLocation: sourceLocation) {
                _ = try await provider.send(Request(.get, path, receiving: .data))
            }
            #expect(outcome.error?.kind == kind, "\(path): \(String(describing: outcome.error))", sourceLocation: sourceLocation)
            #expect(outcome.elapsed < bound, "\(path)", sourceLocation: sourceLocation)
            if let memory { #expect(outcome.memoryGrowth < memory * memoryScale, "\(path): +\(outcome.megabytes) MB", sourceLocation: sourceLocation) }
        }
    }

    // MARK: Resets

    @Test("A connection reset on accept is a transport error at once", arguments: TransportKind.withHTTPS)
    func resetOnAccept(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(port: FaultServer.resetPort())
        let outcome = await fault(within: .seconds(30)) { _ = try await provider.send(Request(.get, "/ok", receiving: .data)) }
        // A reset missed would end at the 2 s idle bound as `.timeout`: the kind tells them apart.
        // The bound on time leaves room for a slow machine (ThreadSanitizer, two busy cores).
        #expect(outcome.error?.kind == .transport, "\(String(describing: outcome.error))")
        #expect(outcome.elapsed < .seconds(15))
    }

    @Test("A reset in the middle of the head or of the body is a transport error", arguments: TransportKind.withHTTPS)
    func resetMidway(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider()
        await expectEach(["/reset-head", "/reset-body"], on: provider, toFailAs: .transport, within: .seconds(5))
    }

    // MARK: Stalls and trickles

    @Test("A server silent before the head, after it or mid-body fails at the idle bound", arguments: TransportKind.withHTTPS)
    func stalls(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(1))
        await expectEach(["/stall-head", "/stall-after-head", "/stall-mid-body"], on: provider, toFailAs: .timeout, within: .seconds(8), memory: nil)
    }

    @Test("A streamed body that stalls fails at the idle bound too", arguments: TransportKind.withHTTPS)
    func streamedStall(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(1))
        let outcome = await fault(within: .seconds(15)) {
            let streamed = try await provider.send(Request(.get, "/stall-mid-body", receiving: .stream))
            _ = try await streamed.collect(upTo: 1 << 20)
        }
        #expect(outcome.error?.kind == .timeout, "\(String(describing: outcome.error))")
        #expect(outcome.elapsed < .seconds(8))
    }

    @Test("A trickle of one byte per 100 ms is progress under the idle bound; a total bound stops it", arguments: TransportKind.withHTTPS)
    func trickle(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(1))
        let outcome = await fault(within: .seconds(15)) {
            let data = try await provider.send(Request(.get, "/trickle?n=15", receiving: .data))
            #expect(data == Data(repeating: UInt8(ascii: "x"), count: 15))
        }
        #expect(outcome.error == nil)
        let bounded = await fault(within: .seconds(15)) {
            _ = try await provider.send(Request(.get, "/trickle?n=100", receiving: .data).timeout(.milliseconds(700)))
        }
        #expect(bounded.error?.kind == .timeout)
        #expect(bounded.elapsed < .seconds(3))
    }

    // MARK: Malformed responses

    @Test("Malformed status lines, headers, lengths and chunking are transport errors", arguments: TransportKind.withHTTPS)
    func malformed(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider()
        await expectEach(["/bad-status", "/bad-header", "/conflicting-length", "/bad-chunking", "/huge-header"], on: provider, toFailAs: .transport, within: .seconds(5))
    }

    // MARK: Hostile bodies

    @Test("An endless body stops at the body limit while it arrives, and memory stays bounded", arguments: TransportKind.withHTTPS)
    func endlessBody(transport: TransportKind) async throws {
        var configured = try await transport.faultProvider()
        configured.responseBodyLimit = 8 << 20
        let provider = configured
        let outcome = await fault(within: .seconds(30)) { _ = try await provider.send(Request(.get, "/endless", receiving: .data)) }
        #expect(outcome.error?.kind == .responseTooLarge)
        #expect(outcome.error?.message.contains("\(8 << 20)") == true)
        #expect(outcome.elapsed < .seconds(15))
        #expect(outcome.memoryGrowth < Self.memoryBound(transport), "+\(outcome.megabytes) MB")
    }

    @Test("An endless body sent as fast as loopback allows stops at the limit, and so does its transfer", .timeLimit(.minutes(2)), arguments: TransportKind.withHTTPS)
    func fastEndlessBody(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider()
        let limit = provider.responseBodyLimit
        let reads: [(String, @Sendable (String) async throws -> Void)] = [
            ("buffered", { path in _ = try await provider.send(Request(.get, path, receiving: .data)) }),
            ("streamed", { path in _ = try await provider.send(Request(.get, path, receiving: .stream)).collect(upTo: 1 << 20) }),
        ]
        for (label, read) in reads {
            let name = "fast-endless-\(label)-\(transport.rawValue)"
            FaultServer.script(name, [.endless])
            let outcome = await fault(within: .seconds(30)) { try await read("/script/\(name)") }
            #expect(outcome.error?.kind == .responseTooLarge, "\(label): \(String(describing: outcome.error))")
            #expect(outcome.elapsed < .seconds(15), "\(label)")
            // The in-process server's own write buffers count too: it writes as fast as it can.
            #expect(outcome.memoryGrowth < Self.memoryBound(transport, plus: 128 << 20), "\(label): +\(outcome.megabytes) MB")
            // The transfer stops with the call: the connection closes within seconds. AsyncHTTPClient
            // stops reading at once, so at most twice the limit is sent. FoundationNetworking takes
            // a cancellation only once the socket has no data waiting, which at full loopback speed
            // can take hundreds of MiB, more the busier the machine (Reliability.md): its bound is
            // on time, not bytes; before, it went on for gigabytes and seconds.
            let closed = await eventually(within: .seconds(10)) { FaultServer.closedConnections(ofScript: name) >= 1 }
            let sent = FaultServer.bytesSent(ofScript: name)
            #expect(closed, "\(label): the connection was still open 10 s after the call ended, \(sent >> 20) MiB sent")
            if transport == .asyncHTTPClient {
                #expect(sent <= 2 * limit, "\(label): the server sent \(sent >> 20) MiB for a limit of \(limit >> 20) MiB")
            }
        }
        // The transport is still sound: the next request is answered at once.
        let next = await fault(within: .seconds(30)) { _ = try await provider.send(Request(.get, "/ok", receiving: .text)) }
        #expect(next.error == nil)
        #expect(next.elapsed < .seconds(15), "the next request took \(next.elapsed)")
    }

    @Test("An endless body read as a stream stops at collect(upTo:)", arguments: TransportKind.withHTTPS)
    func endlessStream(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider()
        let outcome = await fault(within: .seconds(40)) {
            let streamed = try await provider.send(Request(.get, "/endless", receiving: .stream))
            _ = try await streamed.collect(upTo: 1 << 20)
        }
        #expect(outcome.error?.kind == .responseTooLarge)
        #expect(outcome.elapsed < .seconds(25))
        #expect(outcome.memoryGrowth < Self.memoryBound(transport), "+\(outcome.megabytes) MB")
    }

    @Test("An endless event or line in a typed stream stops at the body limit: Server-Sent Events, JSON Lines, JSON sequences", arguments: TransportKind.withHTTPS)
    func endlessEvent(transport: TransportKind) async throws {
        var configured = try await transport.faultProvider()
        configured.responseBodyLimit = 8 << 20
        let provider = configured
        let reads: [(String, @Sendable () async throws -> Void)] = [
            ("events", { for try await _ in try await provider.send(Request(.get, "/endless", receiving: .events(String.self))) {} }),
            ("lines", { for try await _ in try await provider.send(Request(.get, "/endless", receiving: .jsonLines(Int.self))) {} }),
            ("sequence", { for try await _ in try await provider.send(Request(.get, "/endless", receiving: .jsonSequence(Int.self))) {} }),
        ]
        for (label, read) in reads {
            let outcome = await fault(within: .seconds(40)) { try await read() }
            #expect(outcome.error?.kind == .responseTooLarge, "\(label): \(String(describing: outcome.error))")
            #expect(outcome.error?.message.contains("\(8 << 20)") == true, "\(label)")
            #expect(outcome.elapsed < .seconds(25), "\(label)")
            #expect(outcome.memoryGrowth < Self.memoryBound(transport), "\(label): +\(outcome.megabytes) MB")
        }
    }

    @Test("An endless download stops at its limit, the file no longer than the limit", arguments: TransportKind.withHTTPS)
    func endlessDownload(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-endless-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = await fault(within: .seconds(30)) {
            try await provider.download(Request(.get, "/endless", receiving: .stream), to: file, limit: 4 << 20)
        }
        #expect(outcome.error?.kind == .responseTooLarge)
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1
        #expect(size >= 0 && size <= 4 << 20)
        #expect(outcome.memoryGrowth < Self.memoryBound(transport), "+\(outcome.megabytes) MB")
    }

    @Test("A gzip bomb never asked for: not inflated on AsyncHTTPClient, stopped while inflating on URLSession", arguments: TransportKind.withHTTPS)
    func gzipBomb(transport: TransportKind) async throws {
        // Generous idle bound: the bomb is made by `gzip` on first use, which takes seconds.
        var configured = try await transport.faultProvider(idle: .seconds(60))
        configured.responseBodyLimit = 256 << 20
        let provider = configured
        let received = Locked<Int>(0)
        let outcome = await fault(within: .seconds(90)) {
            let data = try await provider.send(Request(.get, "/gzip-bomb", receiving: .data))
            received.withLock { $0 = data.count }
        }
        switch transport {
        case .asyncHTTPClient, .asyncHTTPClientHTTPS:
            // Courier never asks for compression, so the body arrives as sent: about 1 MB.
            #expect(outcome.error == nil)
            #expect(received.withLock { $0 } < 4 << 20)
        case .urlSession:
            // libcurl inflates it regardless; the transport stops it at 100 times its wire size.
            #expect(outcome.error?.kind == .transport)
            #expect(outcome.error?.underlyingError is DecompressionLimitExceeded)
        }
        #expect(outcome.memoryGrowth < (400 << 20) * memoryScale, "+\(outcome.megabytes) MB")
        // libcurl inflates what it has already received even after the task is cancelled, on the
        // session's one queue: the next request on the same URLSession waits until it is done.
        let next = await fault(within: .seconds(60)) { _ = try await provider.send(Request(.get, "/ok", receiving: .text)) }
        #expect(next.error == nil)
        #expect(next.elapsed < .seconds(30), "the next request took \(next.elapsed)")
    }

    // MARK: Challenges, early answers, re-sends

    @Test("Interim 100, 102 and 103 responses before the final 200 are passed over at once", .timeLimit(.minutes(1)), arguments: TransportKind.withHTTPS)
    func interimResponses(transport: TransportKind) async throws {
        let name = "interim-\(transport.rawValue)"
        let final = ScriptStep.answer(status: 200, headers: [("Content-Type", "text/plain")], body: "final")
        FaultServer.script(name, [.interim([100, 102, 103], then: .after(.milliseconds(20), final))])
        let provider = try await transport.faultProvider(idle: .seconds(10))
        let outcome = await fault(within: .seconds(20)) {
            let response = try await provider.send(Request(.get, "/script/\(name)", receiving: .response))
            #expect(response.statusCode == 200)
            #expect(response.bodyText == "final")
            // The early hint's fields belong to the 103, not to the final response.
            #expect(!response.headers.contains { $0.name.canonicalName == "link" })
        }
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(outcome.elapsed < .seconds(3), "the answer took \(outcome.elapsed)")
    }

    @Test("A 401 with a Basic or a Bearer challenge comes back at once as a status error", arguments: TransportKind.withHTTPS)
    func challenges(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider()
        for path in ["/challenge-basic", "/challenge-bearer"] {
            let outcome = await fault(within: .seconds(10)) { _ = try await provider.send(Request(.get, path, receiving: .none)) }
            #expect(outcome.error?.kind == .status, "\(path)")
            #expect(outcome.error?.response?.statusCode == 401, "\(path)")
            #expect(outcome.elapsed < .seconds(8), "\(path)")
        }
    }

    @Test("An early 413 to a large upload ends the call at once", arguments: TransportKind.withHTTPS)
    func earlyRejection(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider()
        let upload = Data(repeating: 0x61, count: 8 << 20)
        let outcome = await fault(within: .seconds(20)) {
            _ = try await provider.send(Request(.post, "/early-413", receiving: .none).body(.data(upload)))
        }
        // The server may be seen answering (413) or closing the connection mid-upload; either
        // way the call ends with an error at once and the upload is not sent twice.
        let kind = outcome.error?.kind
        #expect(kind == .status || kind == .transport, "\(String(describing: outcome.error))")
        if kind == .status { #expect(outcome.error?.response?.statusCode == 413) }
        #expect(outcome.elapsed < .seconds(10))
        #expect(FaultServer.arrivals("/early-413") >= 1)
    }

    @Test("A POST that the server reads and then closes on is sent exactly once", arguments: TransportKind.withHTTPS)
    func postNotResent(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider()
        let target = "/close-after-read?case=\(transport.rawValue)"
        // A request first, so that a kept-alive connection is there to be reused.
        #expect(try await provider.send(Request(.get, "/ok", receiving: .text)) == "ok")
        let outcome = await fault(within: .seconds(20)) {
            _ = try await provider.send(Request(.post, target, receiving: .none).body(.text("order=1")))
        }
        #expect(outcome.error?.kind == .transport)
        #expect(outcome.elapsed < .seconds(10))
        #expect(FaultServer.arrivals(target) == 1)
    }

    @Test("Every fault ran its call: the server saw the requests", arguments: TransportKind.withHTTPS)
    func countsRequests(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider()
        let target = "/count?case=counted-\(transport.rawValue)"
        for _ in 0..<3 { _ = try await provider.send(Request(.post, target, receiving: .text).body(.text("x"))) }
        #expect(FaultServer.arrivals(target) == 3)
    }

    @Test("URLSession: a reader that falls too far behind fails with the backlog's limit rather than growing it")
    func urlSessionSlowReader() async throws {
        var configured = Provider(baseURL: try await FaultServer.baseURL(), transport: URLSessionHTTPTransport(maxUnreadBytes: 1 << 20))
        configured.responseBodyLimit = 1 << 20
        let provider = configured
        let outcome = await fault(within: .seconds(30)) {
            let streamed = try await provider.send(Request(.get, "/endless", receiving: .stream))
            for try await _ in streamed.body {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        #expect(outcome.error?.kind == .transport)
        #expect(outcome.error?.underlyingError is URLSessionBodyOverrun)
        #expect(outcome.error?.message.contains("\(1 << 20)") == true)
        #expect(outcome.memoryGrowth < (384 << 20) * memoryScale, "+\(outcome.megabytes) MB")
    }

    @Test("README's Reliability table and this suite name the same cases")
    func readmeTable() throws {
        // Tests/CourierTests, and the package above it.
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: tests.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "| fault | URLSession | AsyncHTTPClient | test |") else {
            Issue.record("README has no Reliability table")
            return
        }
        let rows = readme[start.upperBound...].split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }
        let named = Set(rows.flatMap { row in
            (row.split(separator: "|").last ?? "").split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
        })
        // Every case of this suite is in the table…
        let suite = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let cases = suite.components(separatedBy: "    func ").dropFirst().compactMap { declaration -> String? in
            guard let name = declaration.components(separatedBy: "(").first, !name.isEmpty, name.allSatisfy(\.isLetter),
                declaration.hasPrefix(name + "(transport: TransportKind)")
            else { return nil }
            return name
        }
        #expect(cases.count >= 14)
        for name in cases { #expect(named.contains(name), "\(name) is not in README's table") }
        // …and every test the table names exists.
        var sources = ""
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            sources += (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        }
        for name in named { #expect(sources.contains("func \(name)("), "README names \(name), which no test has") }
    }
}
