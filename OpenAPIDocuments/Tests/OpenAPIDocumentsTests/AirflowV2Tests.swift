@testable import AirflowV2
import Courier
import Foundation
import Hummingbird
import Testing

/// Apache Airflow 3.1's public API (OpenAPI 3.1, FastAPI's `anyOf` with `null` for every optional
/// value), generated as files and called against a server answering with its schemas' values.
@Suite("Airflow 3.1's public API, generated and called", .timeLimit(.minutes(1)))
struct AirflowV2Tests {
    static let received = Received()
    static let port: Task<Int, any Error> = Task {
        try await startServer { router in
            router.get("/api/v2/version") { _, _ in try payload("AirflowV2-VersionInfo") }
            router.get("/api/v2/monitor/health") { _, _ in try payload("AirflowV2-HealthInfoResponse") }
            router.get("/api/v2/dags") { request, _ in
                received.record("GET \(request.uri)")
                return try payload("AirflowV2-DAGCollectionResponse")
            }
            router.post("/api/v2/dags/:dag_id/dagRuns") { request, context in
                let body = try await request.body.collect(upTo: 64 * 1024)
                received.record("POST \(request.uri.path) \(request.headers[.authorization] ?? "") \(String(buffer: body))")
                return try payload("AirflowV2-DAGRunResponse")
            }
        }
    }

    @Test("Version and health: required values, a null in place of an optional value and of an optional object", arguments: Transport.allCases)
    func monitor(transport: Transport) async throws {
        let provider = transport.provider(port: try await Self.port.value)
        let version = try await VersionAPI(provider: provider).getVersion()
        #expect(version.version == "3.1.3" && version.gitVersion == nil)
        let health = try await MonitorAPI(provider: provider).getHealth()
        #expect(health.metadatabase.status == "status" && health.scheduler.latestSchedulerHeartbeat == "latest_scheduler_heartbeat")
        #expect(health.dagProcessor == nil)
    }

    @Test("The DAGs: query parameters as the document names them, a date-time with microseconds, a null description", arguments: Transport.allCases)
    func dags(transport: Transport) async throws {
        let provider = transport.provider(port: try await Self.port.value)
        let answer = try await DAGAPI(provider: provider).getDags(
            limit: 2, offset: nil, tags: ["etl", "daily"], tagsMatchMode: .any, owners: nil, dagIdPattern: "example_%",
            dagDisplayNamePattern: nil, excludeStale: nil, paused: false, hasImportErrors: nil, lastDagRunState: .failed,
            bundleName: nil, bundleVersion: nil, hasAssetSchedule: nil, assetDependency: nil, dagRunStartDateGte: nil,
            dagRunStartDateGt: nil, dagRunStartDateLte: nil, dagRunStartDateLt: nil, dagRunEndDateGte: nil, dagRunEndDateGt: nil,
            dagRunEndDateLte: nil, dagRunEndDateLt: nil, dagRunState: nil, orderBy: nil, isFavorite: nil,
            authorization: .bearer("token-\(transport)")
        )
        #expect(answer.status == 200)
        let dags = try #require(answer.dagCollectionResponse)
        #expect(dags.totalEntries == 1 && dags.dags.first?.dagId == "example_bash_operator")
        #expect(dags.dags.first?.description == nil)
        let parsed = try #require(dags.dags.first?.lastParsedTime)
        #expect(abs(parsed.timeIntervalSince1970 - 1_795_939_200.123456) < 0.001, "\(parsed)")
        let query = try #require(Self.received.lines.last { $0.hasPrefix("GET /api/v2/dags?") && $0.contains("example_") })
        for pair in ["limit=2", "tags=etl", "tags=daily", "tags_match_mode=any", "paused=false", "last_dag_run_state=failed"] {
            #expect(query.contains(pair), "\(query) lacks \(pair)")
        }
    }

    @Test("Triggering a DAG run: a JSON body in the document's names, a bearer token, a run in reply", arguments: Transport.allCases)
    func trigger(transport: Transport) async throws {
        let provider = transport.provider(port: try await Self.port.value)
        let note = "from \(transport)"
        let answer = try await DagRunAPI(provider: provider).triggerDagRun(
            dagId: "example_bash_operator",
            body: .init(dagRunId: "manual__2026-11-29", logicalDate: Date(timeIntervalSince1970: 1_795_939_200), conf: ["retries": .number(2)], note: note),
            authorization: .bearer("token-1")
        )
        #expect(answer.status == 200 && answer.dagRunResponse?.state == .queued && answer.dagRunResponse?.dagRunId == "manual__2026-11-29")
        let sent = try #require(Self.received.lines.last { $0.contains(note) })
        #expect(sent.hasPrefix("POST /api/v2/dags/example_bash_operator/dagRuns Bearer token-1 "), "\(sent)")
        for fragment in [#""dag_run_id":"manual__2026-11-29""#, #""logical_date":"2026-11-29T08:00:00Z""#, #""retries":2"#] {
            #expect(sent.contains(fragment), "\(sent) lacks \(fragment)")
        }
    }
}
