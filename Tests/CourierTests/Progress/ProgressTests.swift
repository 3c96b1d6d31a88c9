import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import OpenAPIRuntime
import Testing

@API
protocol Transfers {
    @GET("/bytes/:count")
    func bytes(count: Int) async throws -> Data

    @POST("/digest")
    func digest(data: Body<HTTPBody>) async throws -> DigestReply
}

struct BytesEndpoint: Endpoint {
    typealias Response = Data
    var count: Int
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/bytes/\(count)") }
}

struct DigestEndpoint: Endpoint {
    typealias Response = DigestReply
    var data: Data
    func makeRequest() -> RequestBuilder {
        var builder = RequestBuilder(method: .post, path: "/digest")
        builder.setBody(.data(data, contentType: "application/octet-stream"))
        return builder
    }
}

/// The reports a progress handler received, in order.
final class ProgressLog: Sendable {
    let reports = Locked<[TransferProgress]>([])
    var all: [TransferProgress] { reports.withLock { $0 } }
    func record(_ progress: TransferProgress) { reports.withLock { $0.append(progress) } }
}

/// Sends a `Data` request made by `reporting` — which asks for progress as a sequence — and reads
/// that sequence while the call runs: the value and every report the sequence gave.
func sendReadingProgress(
    _ provider: Provider, _ reporting: () -> (Request<Data>, AsyncStream<TransferProgress>)
) async throws -> (Data, [TransferProgress]) {
    let (request, progress) = reporting()
    async let value = provider.send(request)
    var reports: [TransferProgress] = []
    for await report in progress { reports.append(report) }
    return (try await value, reports)
}

/// Checks that `reports` only grow, stay within the total and end at it.
func expectProgress(_ reports: [TransferProgress], total: Int64, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!reports.isEmpty, "\(label): no report", sourceLocation: sourceLocation)
    #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.bytes <= $1.bytes }, "\(label): not monotonic", sourceLocation: sourceLocation)
    #expect(reports.allSatisfy { $0.bytes <= total && ($0.total == nil || $0.total == total) }, "\(label): past the total", sourceLocation: sourceLocation)
    #expect(reports.last?.bytes == total && reports.last?.total == total, "\(label): last \(String(describing: reports.last))", sourceLocation: sourceLocation)
}

@Suite("Progress of uploads and downloads, in every front-end", .serialized, .timeLimit(.minutes(2)))
struct ProgressTests {
    static let size = 4 << 20

    @Test("Downloads: buffered and streamed, @API, Endpoint and fluent, end at the Content-Length", arguments: TransportKind.allCases)
    func downloads(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let calls: [(String, @Sendable (@escaping @Sendable (TransferProgress) -> Void) async throws -> Int)] = [
            ("@API", { report in try await provider.send(TransfersAPI.Requests.bytes(count: Self.size).downloadProgress(every: .zero, report)).count }),
            ("Endpoint", { report in try await provider.send(Request(BytesEndpoint(count: Self.size)).downloadProgress(every: .zero, report)).count }),
            ("fluent", { report in try await provider.send(Request(.get, "/bytes/\(Self.size)", receiving: .data).downloadProgress(every: .zero, report)).count }),
            ("stream", { report in
                let streamed = try await provider.send(Request(.get, "/bytes/\(Self.size)", receiving: .stream).downloadProgress(every: .zero, report))
                return try await streamed.collect(upTo: Self.size).count
            }),
        ]
        for (label, call) in calls {
            let log = ProgressLog()
            #expect(try await call(log.record) == Self.size, "\(label)")
            expectProgress(log.all, total: Int64(Self.size), label)
        }
    }

    @Test("Uploads report as the body is read; on AsyncHTTPClient a large body in many steps", arguments: TransportKind.allCases)
    func uploads(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let data = Data(repeating: 0x61, count: Self.size)
        let log = ProgressLog()
        let request = TransfersAPI.Requests.digest(data: HTTPBody(data)).uploadProgress(every: .zero, log.record)
        let reply = try await provider.send(request)
        #expect(reply.count == Self.size)
        expectProgress(log.all, total: Int64(Self.size), "upload")
        if transport == .asyncHTTPClient {
            #expect(log.all.count > 4, "\(log.all.count) reports")
        }
    }

    @Test("Uploads in every front-end: @API, Endpoint, fluent, each ending at the body's length", arguments: TransportKind.allCases)
    func uploadsEverywhere(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let data = Data(repeating: 0x62, count: Self.size)
        let calls: [(String, @Sendable (@escaping @Sendable (TransferProgress) -> Void) async throws -> DigestReply)] = [
            ("@API", { report in try await provider.send(TransfersAPI.Requests.digest(data: HTTPBody(data)).uploadProgress(every: .zero, report)) }),
            ("Endpoint", { report in try await provider.send(Request(DigestEndpoint(data: data)).uploadProgress(every: .zero, report)) }),
            ("fluent", { report in
                try await provider.send(Request(.post, "/digest", receiving: .json(DigestReply.self)).body(.data(data)).uploadProgress(every: .zero, report))
            }),
        ]
        for (label, call) in calls {
            let log = ProgressLog()
            #expect(try await call(log.record).count == Self.size, "\(label)")
            expectProgress(log.all, total: Int64(Self.size), label)
        }
    }

    @Test("Throttled: a fast transfer reports at most once per interval, plus the last", arguments: TransportKind.allCases)
    func throttled(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let log = ProgressLog()
        let started = ContinuousClock.now
        _ = try await provider.send(Request(.get, "/bytes/\(Self.size)", receiving: .data).downloadProgress(every: .seconds(10), log.record))
        let elapsed = ContinuousClock.now - started
        // Within 10 s: the first report and the last, nothing between.
        if elapsed < .seconds(10) { #expect(log.all.count <= 2, "\(log.all.count) reports") }
        #expect(log.all.last?.fraction == 1)
    }

    @Test("Through an interceptor, which reads the body whole, download progress still counts the body the caller gets", arguments: TransportKind.allCases)
    func progressThroughInterceptor(transport: TransportKind) async throws {
        let provider = try await transport.provider().intercept { req, next in try await next(req) }
        let log = ProgressLog()
        let data = try await provider.send(Request(.get, "/bytes/\(Self.size)", receiving: .data).downloadProgress(every: .zero, log.record))
        #expect(data.count == Self.size)
        expectProgress(log.all, total: Int64(Self.size), "through an interceptor")
        let (received, reports) = try await sendReadingProgress(provider) {
            Request(.get, "/bytes/\(Self.size)", receiving: .data).downloadProgress(every: .zero)
        }
        #expect(received.count == Self.size)
        expectProgress(reports, total: Int64(Self.size), "as a sequence, through an interceptor")
    }

    @Test("As an async sequence: download and upload progress end with the transfer", arguments: TransportKind.allCases)
    func asSequence(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let (received, reports) = try await sendReadingProgress(provider) {
            Request(.get, "/bytes/\(Self.size)", receiving: .data).downloadProgress(every: .zero)
        }
        #expect(received.count == Self.size)
        expectProgress(reports, total: Int64(Self.size), "download")

        let data = Data(repeating: 0x63, count: Self.size)
        let (upload, sent) = TransfersAPI.Requests.digest(data: HTTPBody(data)).uploadProgress(every: .zero)
        async let reply = provider.send(upload)
        var uploaded: [TransferProgress] = []
        for await report in sent { uploaded.append(report) }
        #expect(try await reply.count == Self.size)
        expectProgress(uploaded, total: Int64(Self.size), "upload")
    }

    @Test("As an async sequence: progress ends with a call that fails before any body, and with one whose response has none", arguments: TransportKind.allCases)
    func sequenceEndsWithTheCall(transport: TransportKind) async throws {
        // Nothing listens on port 1: the call fails before a body is read or sent.
        let refused = Provider(baseURL: "http://127.0.0.1:1", transport: transport.transport)
        let (download, progress) = Request(.get, "/bytes/10", receiving: .data).downloadProgress()
        let failed = Task { try await refused.send(download) }
        var reports = 0
        for await _ in progress { reports += 1 }
        await #expect(throws: CourierError.self) { try await failed.value }
        #expect(reports == 0)
        let (upload, sent) = Request(.post, "/digest", receiving: .data).body(.data(Data(count: 64), contentType: "application/octet-stream")).uploadProgress()
        let failedUpload = Task { try await refused.send(upload) }
        for await _ in sent {}
        await #expect(throws: CourierError.self) { try await failedUpload.value }

        // A 204 and a HEAD: responses with no body to count.
        let provider = try await transport.provider()
        for (method, path, status) in [(HTTPRequest.Method.get, "/empty", 204), (.head, "/head", 200)] {
            let (request, none) = Request(method, path, receiving: .response).downloadProgress()
            async let answered = provider.send(request)
            for await _ in none {}
            #expect(try await answered.statusCode == status, "\(method) \(path)")
        }
    }

    @Test("Under a retry, download progress describes the body the caller gets, not a failed attempt's", arguments: TransportKind.allCases)
    func progressUnderRetry(transport: TransportKind) async throws {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        provider.retryPolicy = RetryPolicy(maxAttempts: 2, jitter: .none)
        provider.clock = RecordingClock()
        let body = String(repeating: "x", count: 200_000)
        let failed = "the service is unavailable, try again"

        // The callback: no report of the 503's body.
        let name = scriptName("progress-retry", transport)
        FaultServer.script(name, [.answer(status: 503, body: failed), .answer(status: 200, body: body)])
        let log = ProgressLog()
        let data = try await provider.send(Request(.get, "/script/:name", receiving: .data).parameter("name", name).downloadProgress(every: .zero, log.record))
        #expect(data.count == 200_000)
        expectProgress(log.all, total: 200_000, "callback")
        #expect(FaultServer.arrivals(ofScript: name).count == 2)

        // The stream: it ends with the body returned, not after the 503's.
        let streamed = scriptName("progress-retry-stream", transport)
        FaultServer.script(streamed, [.answer(status: 503, body: failed), .answer(status: 200, body: body)])
        let (received, reports) = try await sendReadingProgress(provider) {
            Request(.get, "/script/:name", receiving: .data).parameter("name", streamed).downloadProgress(every: .zero)
        }
        #expect(received.count == 200_000)
        expectProgress(reports, total: 200_000, "stream")
    }
}
