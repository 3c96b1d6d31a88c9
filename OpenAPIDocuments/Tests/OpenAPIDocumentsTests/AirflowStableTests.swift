@testable import AirflowStable
import Courier
import Foundation
import Hummingbird
import Testing

/// Apache Airflow 2.10's stable REST API (OpenAPI 3.0, its server at `/api/v1`), generated as
/// files and called against a server answering with its schemas' values.
@Suite("Airflow 2.10's stable REST API, generated and called", .timeLimit(.minutes(1)))
struct AirflowStableTests {
    static let received = Received()
    static let port: Task<Int, any Error> = Task {
        try await startServer { router in
            router.get("/api/v1/version") { _, _ in try payload("AirflowStable-VersionInfo") }
            router.get("/api/v1/health") { _, _ in try payload("AirflowStable-HealthInfo") }
            router.get("/api/v1/dags") { request, _ in
                received.record("GET \(request.uri)")
                return try payload("AirflowStable-DAGCollection")
            }
        }
    }

    @Test("Version, health and the DAGs, under the server's path", arguments: Transport.allCases)
    func calls(transport: Transport) async throws {
        let provider = transport.provider(port: try await Self.port.value, path: AirflowAPIStableServer.main)
        let monitoring = MonitoringAPI(provider: provider)
        let version = try await monitoring.getVersion()
        #expect(version.version == "2.10.5" && version.gitVersion == nil)
        let health = try await monitoring.getHealth()
        #expect(health.metadatabase?.status == .healthy && health.scheduler?.latestSchedulerHeartbeat == "latest_scheduler_heartbeat")

        let answer = try await DAGEndpointsAPI(provider: provider).getDags(
            limit: 5, offset: nil, orderBy: "-dag_id", tags: ["etl"], onlyActive: true, paused: nil, fields: ["dag_id", "tags"],
            dagIdPattern: "example \(transport)"
        )
        let dag = try #require(answer.dagCollection?.dags?.first)
        #expect(answer.status == 200 && dag.dagId == "example_bash_operator" && dag.description == nil)
        #expect(abs((dag.lastParsedTime?.timeIntervalSince1970 ?? 0) - 1_795_939_200.123456) < 0.001)
        // A union told apart by its `__type` discriminator.
        guard case .cronExpression(let cron)? = dag.scheduleInterval else {
            Issue.record("schedule_interval: \(String(describing: dag.scheduleInterval))")
            return
        }
        #expect(cron.value == "0 0 * * *")
        let query = try #require(Self.received.lines.last { $0.contains("\(transport)") })
        for pair in ["limit=5", "order_by=-dag_id", "tags=etl", "only_active=true", "fields=dag_id", "fields=tags"] {
            #expect(query.contains(pair), "\(query) lacks \(pair)")
        }
    }
}
