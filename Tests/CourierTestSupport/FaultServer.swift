import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// An HTTP/1.1 server on 127.0.0.1 that misbehaves on purpose, byte by byte, for the fault
/// suite. Each path is one fault; every request's target is counted on arrival, so a test can
/// prove that a request arrived exactly once (give each test a query of its own).
///
/// | path | what the server does |
/// |---|---|
/// | `/ok` | `200`, body `ok`, connection kept alive |
/// | `/reset-head` | half a status line, then a reset |
/// | `/reset-body` | a head promising 100 bytes, 10 of them, then a reset |
/// | `/stall-head` | reads the request and never answers |
/// | `/stall-after-head` | a head promising 100 bytes, then silence |
/// | `/stall-mid-body` | a head and 10 of 100 bytes, then silence |
/// | `/trickle?n=N` | N bytes, one every 100 ms |
/// | `/bad-status` | a status line that is not one |
/// | `/bad-header` | a header line without a colon |
/// | `/conflicting-length` | `Content-Length: 5` and `Content-Length: 10`, body `helloworld` |
/// | `/bad-chunking` | a chunk size that is not hexadecimal |
/// | `/huge-header` | a 1 MiB header value |
/// | `/endless` | a chunked body that never ends, as fast as it is read |
/// | `/gzip-bomb` | `Content-Encoding: gzip`: 1 GiB of zeros in about 1 MB, never asked for |
/// | `/challenge-basic`, `/challenge-bearer` | `401` with a `WWW-Authenticate` challenge |
/// | `/early-413` | `413` and a close as soon as the head arrives, the body unread |
/// | `/close-after-read` | reads the whole request, then closes without answering |
/// | `/script/<name>` | what the script registered under `name` says for this arrival |
///
/// ``resetPort()`` is a second listener that resets every connection as soon as it is accepted.
public enum FaultServer {
    private static let started = Task<(Int, Int, Int), any Error> { try await start() }
    private static let counts = NIOLockedValueBox<[String: Int]>([:])

    /// The port of the misbehaving server.
    public static func port() async throws -> Int { try await started.value.0 }
    /// The port of the listener that resets every connection on accept.
    public static func resetPort() async throws -> Int { try await started.value.1 }
    /// The port of the same misbehaving server behind TLS (HTTP/1.1, the certificate of
    /// ``TestPKI/server``): its faults arrive inside a TLS session.
    public static func tlsPort() async throws -> Int { try await started.value.2 }
    /// `http://127.0.0.1:<port>`.
    public static func baseURL() async throws -> String { "http://127.0.0.1:\(try await port())" }

    /// How many requests for `target` (path and query) have arrived so far.
    public static func arrivals(_ target: String) -> Int {
        counts.withLockedValue { $0[target, default: 0] }
    }

    static func arrived(_ target: String) {
        counts.withLockedValue { $0[target, default: 0] += 1 }
    }

    private static let scripts = NIOLockedValueBox<[String: Script]>([:])
    private struct Script {
        let answer: @Sendable (ScriptedArrival) -> ScriptStep
        var arrivals: [ScriptedArrival] = []
    }

    /// Makes `/script/<name>` answer its n-th arrival with `steps[n - 1]`, the last step once
    /// they run out. Use a name of your own per test.
    public static func script(_ name: String, _ steps: [ScriptStep]) {
        script(name) { arrival in steps.isEmpty ? .answer(status: 200) : steps[min(arrival.number, steps.count) - 1] }
    }

    /// Makes `/script/<name>` answer each arrival as `answer` says.
    public static func script(_ name: String, answer: @escaping @Sendable (ScriptedArrival) -> ScriptStep) {
        scripts.withLockedValue { $0[name] = Script(answer: answer) }
    }

    private static let closedConnections = NIOLockedValueBox<[String: Int]>([:])

    /// How many connections that served `/script/<name>` have closed, whichever side closed them.
    public static func closedConnections(ofScript name: String) -> Int {
        closedConnections.withLockedValue { $0[name, default: 0] }
    }

    static func connectionClosed(script name: String) {
        closedConnections.withLockedValue { $0[name, default: 0] += 1 }
    }

    private static let bytesSent = NIOLockedValueBox<[String: Int]>([:])

    /// How many bytes of a ``ScriptStep/endless`` body the connections of `/script/<name>` have
    /// handed to the kernel so far.
    public static func bytesSent(ofScript name: String) -> Int {
        bytesSent.withLockedValue { $0[name, default: 0] }
    }

    static func sent(_ count: Int, script name: String) {
        bytesSent.withLockedValue { $0[name, default: 0] += count }
    }

    private static let signals = NIOLockedValueBox<Set<String>>([])

    /// Lets a stream that ends with ``StreamEnd/resetWhenSignalled(_:)`` with `name` end.
    public static func signal(_ name: String) {
        _ = signals.withLockedValue { $0.insert(name) }
    }

    /// Whether `name` was signalled; a signal is taken once.
    static func takeSignal(_ name: String) -> Bool {
        signals.withLockedValue { $0.remove(name) != nil }
    }

    /// The requests that arrived at `/script/<name>`, in order.
    public static func arrivals(ofScript name: String) -> [ScriptedArrival] {
        scripts.withLockedValue { $0[name]?.arrivals ?? [] }
    }

    /// Records an arrival at a script and tells what to do.
    static func step(_ name: String, method: String, target: String, headers: [(name: String, value: String)]) -> ScriptStep {
        let (answer, arrival): ((@Sendable (ScriptedArrival) -> ScriptStep)?, ScriptedArrival) = scripts.withLockedValue { scripts in
            let number = (scripts[name]?.arrivals.count ?? 0) + 1
            let arrival = ScriptedArrival(number: number, method: method, target: target, headers: headers)
            scripts[name]?.arrivals.append(arrival)
            return (scripts[name]?.answer, arrival)
        }
        return answer?(arrival) ?? .answer(status: 404)
    }

    private static func start() async throws -> (Int, Int, Int) {
        _ = gzipBomb  // Started now, in its own process, so that it is ready when asked for.
        // A group of its own: the clients under test and the other servers share the singleton,
        // and what this server does (writing as fast as loopback allows, timers) must not delay
        // them, nor they it.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let faults = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in channel.pipeline.addHandler(FaultHandler()) }
            .bind(host: "127.0.0.1", port: 0).get()
        let resets = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in channel.pipeline.addHandler(ResetOnAccept()) }
            .bind(host: "127.0.0.1", port: 0).get()
        let identity = TestPKI.shared.server
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(identity.certificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem))
        )
        let context = try NIOSSLContext(configuration: tls)
        let secure = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.addHandler(FaultHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return (faults.localAddress?.port ?? 0, resets.localAddress?.port ?? 0, secure.localAddress?.port ?? 0)
    }

    /// 1 GiB of zeros, gzipped once per process by the system's `gzip`: about 1 MB.
    static let gzipBomb = Task {
        // Made on a thread of its own: waiting for `gzip` must not hold a thread of the
        // cooperative pool, which the rest of the suite needs.
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: makeGzipBomb()) }
        }
    }

    private static func makeGzipBomb() -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "head -c 1073741824 /dev/zero | gzip -9 -c"]
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            return []
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }
}

/// Closes every connection with a reset as soon as it is accepted.
private final class ResetOnAccept: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        reset(context)
    }
}

/// Closes the connection with a TCP reset rather than an orderly shutdown.
private func reset(_ context: ChannelHandlerContext) {
    reset(context.channel)
}

/// `reset` for a channel, from any thread.
private func reset(_ channel: any Channel) {
    guard let options = channel as? any SocketOptionProvider else {
        channel.close(promise: nil)
        return
    }
    options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
        channel.close(promise: nil)
    }
}

/// `duration` as NIO schedules it.
private func timeAmount(_ duration: Duration) -> TimeAmount {
    .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
}

/// What the fault server does for one arrival at a script.
public enum ScriptStep: Sendable {
    /// Answers with `status`, `headers` and `body`, keeping the connection.
    case answer(status: Int, headers: [(String, String)] = [], body: String = "")
    /// Resets the connection once the request has arrived.
    case reset
    /// Closes the connection once the request has arrived, without answering.
    case close
    /// Never answers.
    case stall
    /// A chunked `200` of `contentType` whose body is `chunks`, each written `gap` after the one
    /// before, then ended as `end` says.
    case stream(contentType: String, chunks: [String], gap: Duration = .milliseconds(2), end: StreamEnd = .finish)
    /// Does `step` after `delay`.
    indirect case after(Duration, ScriptStep)
    /// A chunked `200` whose body never ends, written as fast as the connection takes it — no
    /// pacing — until the client goes away; ``FaultServer/bytesSent(ofScript:)`` counts it.
    case endless
    /// Interim responses with the given `1xx` statuses, unasked (`103` with a `Link` field), then
    /// `step`.
    indirect case interim([Int], then: ScriptStep)
    /// Does `step`, then closes the connection once it has been idle for `idle`, as servers do
    /// with keep-alive connections (Node after 5 s, nginx after 75 s), without a word to the
    /// client: a request sent as it closes races the close.
    indirect case closingWhenIdle(Duration, ScriptStep)
}

/// How a scripted stream ends.
public enum StreamEnd: Sendable {
    /// With the last chunk: the body is complete.
    case finish
    /// With a reset: the connection drops mid-body.
    case reset
    /// Not at all: the connection stays open until the client closes it.
    case hold
    /// With a close of the connection and no last chunk: the body ends uncleanly.
    case close
    /// With a reset once the test calls ``FaultServer/signal(_:)`` with `signal` (at the latest
    /// after 10 seconds): a drop that comes after the client has read everything before it,
    /// however slowly the client reads.
    case resetWhenSignalled(String)
    /// With a reset once every byte written has reached the client's kernel (acknowledged by
    /// it; at the latest after 10 seconds): a reset discards what a server has not yet sent, so
    /// without the wait a client that reads slowly would lose bytes that never reached it.
    case resetOnceDelivered
}

/// One request that arrived at a script.
public struct ScriptedArrival: Sendable {
    /// From 1.
    public let number: Int
    /// The method, as sent.
    public let method: String
    /// The request target: path and query.
    public let target: String
    /// The headers, as sent.
    public let headers: [(name: String, value: String)]

    /// The first value of the header `name`, whatever its case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Reads requests on one connection and answers each as its path says.
private final class FaultHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var received: [UInt8] = []
    /// The request whose body is still arriving: its target and how many body bytes remain.
    private var pending: (target: String, remaining: Int)?
    /// The method and headers of the request whose body is still arriving.
    private var head: (method: String, headers: [(name: String, value: String)]) = ("", [])
    private var closed = false
    /// Request heads read on this connection.
    private var heads = 0
    /// The scripts this connection answered, told when it closes.
    private var scriptsServed: Set<String> = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        process(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        for name in scriptsServed { FaultServer.connectionClosed(script: name) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func process(_ context: ChannelHandlerContext) {
        while !closed {
            if let (target, remaining) = pending {
                let taken = min(remaining, received.count)
                received.removeFirst(taken)
                guard remaining - taken == 0 else {
                    pending = (target, remaining - taken)
                    return
                }
                pending = nil
                answer(target, context)
                continue
            }
            guard let end = headEnd() else { return }
            let head = String(decoding: received[..<end], as: UTF8.self)
            received.removeFirst(end + 4)
            let lines = head.components(separatedBy: "\r\n")
            let parts = lines.first?.split(separator: " ") ?? []
            let target = parts.count > 1 ? String(parts[1]) : "/"
            let length = lines.dropFirst().compactMap { line -> Int? in
                let pair = line.split(separator: ":", maxSplits: 1)
                guard pair.count == 2, pair[0].lowercased() == "content-length" else { return nil }
                return Int(pair[1].trimmingCharacters(in: .whitespaces))
            }.first ?? 0
            FaultServer.arrived(target)
            heads += 1
            self.head = (
                parts.first.map(String.init) ?? "",
                lines.dropFirst().compactMap { line in
                    let pair = line.split(separator: ":", maxSplits: 1)
                    return pair.count == 2 ? (String(pair[0]), pair[1].trimmingCharacters(in: .whitespaces)) : nil
                }
            )
            if target.hasPrefix("/early-413") {
                // Answer before the body: the client is still sending it.
                write("HTTP/1.1 413 Content Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", context, close: true)
                return
            }
            pending = (target, length)
        }
    }

    private func headEnd() -> Int? {
        guard received.count >= 4 else { return nil }
        for index in 0...(received.count - 4)
        where received[index] == 13 && received[index + 1] == 10 && received[index + 2] == 13 && received[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func write(_ text: String, _ context: ChannelHandlerContext, close: Bool = false) {
        write(Array(text.utf8), context, close: close)
    }

    private func write(_ bytes: [UInt8], _ context: ChannelHandlerContext, close: Bool = false) {
        let future = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes)))
        let channel = context.channel
        if close { future.whenComplete { _ in channel.close(promise: nil) } }
    }

    private func answer(_ target: String, _ context: ChannelHandlerContext) {
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "/")
        let query = target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        if path.hasPrefix("/script/") {
            let name = String(path.dropFirst("/script/".count))
            scriptsServed.insert(name)
            perform(FaultServer.step(name, method: head.method, target: target, headers: head.headers), script: name, context)
            return
        }
        switch path {
        case "/ok", "/count":
            write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", context)
        case "/reset-head":
            write("HTTP/1.1 200 OK\r\nContent-Le", context)
            reset(context)
        case "/reset-body":
            write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789", context)
            let channel = context.channel
            context.eventLoop.scheduleTask(in: .milliseconds(50)) { reset(channel) }
        case "/stall-head":
            break
        case "/stall-after-head":
            write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", context)
        case "/stall-mid-body":
            write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789", context)
        case "/trickle":
            let count = query.split(separator: "=").last.flatMap { Int($0) } ?? 20
            write("HTTP/1.1 200 OK\r\nContent-Length: \(count)\r\n\r\n", context)
            trickle(count, context)
        case "/bad-status":
            write("HTTP/1.1 2x0 Fine\r\nContent-Length: 2\r\n\r\nok", context, close: true)
        case "/bad-header":
            write("HTTP/1.1 200 OK\r\nThis line has no colon\r\nContent-Length: 2\r\n\r\nok", context, close: true)
        case "/conflicting-length":
            write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 10\r\n\r\nhelloworld", context, close: true)
        case "/bad-chunking":
            write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", context, close: true)
        case "/huge-header":
            write("HTTP/1.1 200 OK\r\nX-Huge: \(String(repeating: "a", count: 1 << 20))\r\nContent-Length: 2\r\n\r\nok", context, close: true)
        case "/endless":
            write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", context)
            endless(context)
        case "/gzip-bomb":
            // Made once by `gzip` in its own process, never on the event loop.
            let promise = context.eventLoop.makePromise(of: [UInt8].self)
            promise.completeWithTask { await FaultServer.gzipBomb.value }
            promise.futureResult.assumeIsolated().whenSuccess { [self] bomb in
                write("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Encoding: gzip\r\nContent-Type: text/plain\r\nContent-Length: \(bomb.count)\r\n\r\n", context)
                write(bomb, context, close: true)
            }
        case "/challenge-basic":
            write("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"faults\"\r\nContent-Length: 0\r\n\r\n", context)
        case "/challenge-bearer":
            write("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer realm=\"faults\", error=\"invalid_token\"\r\nContent-Length: 0\r\n\r\n", context)
        case "/close-after-read":
            context.close(promise: nil)
        default:
            write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", context)
        }
    }

    private func perform(_ step: ScriptStep, script name: String, _ context: ChannelHandlerContext) {
        switch step {
        case .answer(let status, let headers, let body):
            let fields = headers.map { "\($0.0): \($0.1)\r\n" }.joined()
            // A Content-Length of the script's own replaces the body's (a 304 announces one).
            let length = headers.contains { $0.0.lowercased() == "content-length" } ? "" : "Content-Length: \(body.utf8.count)\r\n"
            write("HTTP/1.1 \(status) Scripted\r\n\(fields)\(length)\r\n\(body)", context)
        case .reset:
            reset(context)
        case .close:
            context.close(promise: nil)
        case .stall:
            break
        case .stream(let contentType, let chunks, let gap, let end):
            write("HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nTransfer-Encoding: chunked\r\n\r\n", context)
            stream(chunks[...], gap: gap, end: end, context)
        case .after(let delay, let step):
            context.eventLoop.assumeIsolated().scheduleTask(in: timeAmount(delay)) { [self] in
                guard !closed else { return }
                perform(step, script: name, context)
            }
        case .endless:
            write("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n", context)
            endlessScript = name
            pump(context)
        case .interim(let statuses, let step):
            write(statuses.map(Self.interimHead).joined(), context)
            perform(step, script: name, context)
        case .closingWhenIdle(let idle, let step):
            perform(step, script: name, context)
            let seen = heads
            context.eventLoop.assumeIsolated().scheduleTask(in: timeAmount(idle)) { [self] in
                guard !closed, heads == seen else { return }
                context.close(promise: nil)
            }
        }
    }

    private static func interimHead(_ status: Int) -> String {
        switch status {
        case 100: "HTTP/1.1 100 Continue\r\n\r\n"
        case 102: "HTTP/1.1 102 Processing\r\n\r\n"
        case 103: "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n"
        default: "HTTP/1.1 \(status) Interim\r\n\r\n"
        }
    }

    /// One chunk of an unpaced endless body: 256 KiB.
    private static let fastChunk = ByteBuffer(bytes: Array("40000\r\n".utf8) + [UInt8](repeating: 0x62, count: 0x40000) + Array("\r\n".utf8))

    /// The script whose unpaced endless body this connection is writing.
    private var endlessScript: String?

    /// Writes chunks while the channel takes them, and again each time it becomes writable: as
    /// fast as the client reads, with nothing held back. After 1 MiB it lets the event loop run
    /// its other work before going on: a reader as fast as the writer would otherwise keep the
    /// loop here, and every connection and timer on it (other tests' servers and clients) would
    /// stall until the reader went away.
    private func pump(_ context: ChannelHandlerContext) {
        guard let name = endlessScript, !closed, !pumpScheduled else { return }
        var written = 0
        while context.channel.isWritable {
            if written >= 4 {
                pumpScheduled = true
                context.eventLoop.assumeIsolated().execute { [self] in
                    pumpScheduled = false
                    pump(context)
                }
                return
            }
            let promise = context.eventLoop.makePromise(of: Void.self)
            let count = Self.fastChunk.readableBytes
            promise.futureResult.whenSuccess { FaultServer.sent(count, script: name) }
            context.write(wrapOutboundOut(Self.fastChunk), promise: promise)
            context.flush()
            written += 1
        }
    }

    /// Whether a pump is already queued on the event loop.
    private var pumpScheduled = false

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        pump(context)
        context.fireChannelWritabilityChanged()
    }

    private func stream(_ chunks: ArraySlice<String>, gap: Duration, end: StreamEnd, _ context: ChannelHandlerContext) {
        guard !closed else { return }
        guard let chunk = chunks.first else {
            switch end {
            case .finish: write("0\r\n\r\n", context)
            case .reset: reset(context)
            case .hold: break
            case .close: context.close(promise: nil)
            case .resetWhenSignalled(let signal): resetWhenSignalled(signal, polls: 1_000, context)
            case .resetOnceDelivered:
                // Written once everything before it was handed to the kernel.
                context.writeAndFlush(wrapOutboundOut(ByteBuffer())).assumeIsolated().whenComplete { [self] _ in
                    resetOnceAcknowledged(polls: 2_000, context)
                }
            }
            return
        }
        if !chunk.isEmpty {
            write(String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n", context)
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: timeAmount(gap)) { [self] in
            stream(chunks.dropFirst(), gap: gap, end: end, context)
        }
    }

    private func resetWhenSignalled(_ signal: String, polls: Int, _ context: ChannelHandlerContext) {
        guard !closed else { return }
        guard polls > 0, !FaultServer.takeSignal(signal) else { return reset(context) }
        context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(10)) { [self] in
            resetWhenSignalled(signal, polls: polls - 1, context)
        }
    }

    private func resetOnceAcknowledged(polls: Int, _ context: ChannelHandlerContext) {
        guard !closed else { return }
        #if os(Linux)
        guard polls > 0, let options = context.channel as? any SocketOptionProvider else { return reset(context) }
        options.getTCPInfo().assumeIsolated().whenComplete { [self] result in
            guard case .success(let info) = result, info.tcpi_unacked > 0 else { return reset(context) }
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(5)) { [self] in
                resetOnceAcknowledged(polls: polls - 1, context)
            }
        }
        #else
        reset(context)
        #endif
    }

    private func trickle(_ remaining: Int, _ context: ChannelHandlerContext) {
        guard remaining > 0, !closed else { return }
        context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(100)) { [self] in
            write("x", context)
            trickle(remaining - 1, context)
        }
    }

    /// 64 KiB chunks, each written a millisecond after the one before is flushed — at most
    /// 64 MB/s, faster than most networks — until the client goes away. The unpaced body of
    /// ``ScriptStep/endless`` outruns libcurl on loopback, so that FoundationNetworking's queue
    /// takes a cancellation late; `fastEndlessBody` measures how late.
    private func endless(_ context: ChannelHandlerContext) {
        let chunk = ByteBuffer(bytes: Array("10000\r\n".utf8) + [UInt8](repeating: 0x61, count: 0x10000) + Array("\r\n".utf8))
        func next() {
            guard !closed else { return }
            context.writeAndFlush(wrapOutboundOut(chunk)).assumeIsolated().whenComplete { result in
                guard case .success = result else { return }
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(1)) { next() }
            }
        }
        next()
    }
}
