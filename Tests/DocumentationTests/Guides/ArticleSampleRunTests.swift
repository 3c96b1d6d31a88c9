import Courier
import CourierTesting
import Foundation
import InMemoryTracing
import MetricsTestKit
import Testing

/// The samples of the README and the articles that talk to a server, run against `DocServer`.
@Suite(.timeLimit(.minutes(1)))
struct ArticleSampleRunTests {
    @Test func quickStartReadsAUser() async throws {
        #expect(try await quickStart(server: DocServer.baseURL()) == "Ada")
    }

    @Test func landingPageSample() async throws {
        #expect(try await landing(server: DocServer.baseURL()).id == 42)
    }

    @Test func mocksAnswer() async throws {
        #expect(try await mockedCatalogue().books(author: "Herbert").map(\.title) == ["Dune"])
    }

    @Test func mockTransportRecords() async throws {
        #expect(try await mockTransportSample().requests.count == 1)
    }

    @Test func notificationsStream() async throws {
        let provider = Provider(baseURL: try await DocServer.baseURL())
        let shown = Locked<[String]>([])
        try await notificationsTour(notifications: NotificationsAPI(provider: provider)) { note in
            shown.withLock { $0.append(note.title) }
        }
        #expect(shown.withLock { $0 } == ["notice 1", "notice 2", "notice 3"])
    }

    @Test func issuePages() async throws {
        let provider = Provider(baseURL: try await DocServer.baseURL())
        var titles: [String] = []
        try await issuesTour(provider: provider) { titles.append($0.title) }
        #expect(titles == ["first", "second", "third"])
    }

    @Test func uploadAndExport() async throws {
        let provider = Provider(baseURL: try await DocServer.baseURL())
        let folder = FileManager.default.temporaryDirectory.appending(path: "courier-doc-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let upload = folder.appending(path: "upload.bin")
        try Data(repeating: 7, count: 100_000).write(to: upload)
        let saved = folder.appending(path: "export.csv")
        var streamed = 0
        let receipt = try await transfer(provider: provider, url: upload, fileURL: saved) { streamed += $0.count }
        #expect(receipt.id == 100_000)
        #expect(streamed == 16)
        #expect(try String(contentsOf: saved, encoding: .utf8) == "id,title\n1,SICP\n")
    }

    @Test func progressReports() async throws {
        let provider = Provider(baseURL: try await DocServer.baseURL())
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-doc-\(UUID()).bin")
        try Data(count: 10).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let bar = ProgressBar()
        let data = try await progressTour(provider: provider, url: file, bar: bar)
        #expect(data.count == 16)
        #expect(bar.value == 1)
    }

    @Test func observabilityInTests() async throws {
        let port = try await DocServer.port() //-
        let server = (url: "http://127.0.0.1:\(port)", port: port) //-
        // sample: observability-tests

        let tracer = InMemoryTracer()
        let metrics = TestMetrics()
        var provider = Provider(baseURL: server.url)
        provider.observability = Observability(tracer: tracer, metricsFactory: metrics)

        _ = try await UsersAPI(provider: provider).user(id: 42)
        #expect(tracer.finishedSpans.map(\.operationName) == ["GET /users/{id}"])
        #expect(try metrics.expectTimer("http.client.request.duration", [
            ("http.request.method", "GET"), ("server.address", "127.0.0.1"), ("server.port", "\(server.port)"),
            ("url.template", "/users/{id}"), ("http.response.status_code", "200"),
        ]).values.count == 1)
        // end sample
    }

    @Test func retriesWithARecordingClock() async throws {
        var provider = Provider(baseURL: try await DocServer.baseURL()) //-
        let request = Request(.get, "/always-busy", receiving: .data) //-
        // sample: retry-clock
        let clock = RecordingClock()
        provider.clock = clock
        provider.retryPolicy = RetryPolicy(maxAttempts: 3, jitter: .none)
        _ = try? await provider.send(request)
        #expect(clock.waits == [.milliseconds(200), .milliseconds(400)])
        // end sample
    }
}
