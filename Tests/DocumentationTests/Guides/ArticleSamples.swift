// The samples of the DocC articles that the README does not share, compiled;
// `ArticleSampleRunTests` runs those that talk to a server.
import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Logging

// sample: landing
@API
protocol UserDirectory {
    @GET("/users/:id")
    func user(id: Int) async throws -> User
}

func landing(server: String) async throws -> User { //-
func Provider(baseURL: String) -> Courier.Provider { Courier.Provider(baseURL: server) } //-
let users: any UserDirectory = UserDirectoryAPI(provider: Provider(baseURL: "https://api.example.com"))
let user = try await users.user(id: 42)
return user //-
} //-
// end sample

struct Notification: Codable, Sendable { var title: String } //-
// sample: streams-notifications
@API
protocol Notifications {
    @GET("/v1/notifications/stream")
    func stream() async throws -> ServerSentEvents<Notification>
}

func notificationsTour(notifications: any Notifications, show: (Notification) -> Void) async throws { //-
for try await notification in try await notifications.stream() {
    show(notification)
}
} //-
// end sample

struct TrackedIssue: Codable, Sendable { var title: String } //-

// sample: streams-pages
func issuesTour(provider: Provider, triage: (TrackedIssue) -> Void) async throws { //-
let pages = provider.pages(Request(.get, "/issues", receiving: .json(IssuePage.self)), limit: 10) { context in
    context.page.nextCursor.map { .query("cursor", $0) }
}
for try await issue in pages.items(\.issues) { triage(issue) }
} //-
// end sample

struct ImportJob: Codable, Sendable { var id: Int } //-
// sample: retry-overrides
func retryingProvider() -> Provider { //-
var provider = Provider(baseURL: "https://api.example.com")
provider.retryPolicy = .standard
return provider //-
} //-

@API
@Retry(.standard)
protocol Catalog {
    @Retry(.disabled)
    @POST("/imports")
    func startImport(file: Body<Data>) async throws -> ImportJob
}
// end sample
