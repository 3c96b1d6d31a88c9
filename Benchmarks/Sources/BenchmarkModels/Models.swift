// The types and APIs that the benchmarks and PipelineProfile both call, in one place.
public import Courier
import Foundation
public import OpenAPIRuntime

public struct User: Codable, Sendable {
    public var id: Int
    public var login: String
    public var name: String
    public var email: String
    public var company: String
    public var location: String
    public var bio: String
    public var followers: Int
    public var following: Int
    public var isAdmin: Bool
}

public struct NewIssue: Codable, Sendable {
    public var title: String
    public var body: String
    public var assignee: String
    public var milestone: Int
    public var draft: Bool

    public init(title: String, body: String, assignee: String, milestone: Int, draft: Bool) {
        self.title = title
        self.body = body
        self.assignee = assignee
        self.milestone = milestone
        self.draft = draft
    }
}

/// The endpoint of the build benchmark: two path values, three query items, a five-field body.
@API
public protocol Issues {
    @POST("/orgs/:org/repos/:repo/issues")
    func create(
        org: String, repo: String,
        label: Query<String>, page: Query<Int>, sort: Query<String>,
        title: String, body: String, assignee: String, milestone: Int, draft: Bool
    ) async throws
}

@API
public protocol Users {
    @GET("/users/:id")
    func user(id: Int) async throws -> User

    @POST("/users")
    func create(user: Body<User>) async throws -> User

    @POST("/upload")
    func upload(data: Body<HTTPBody>) async throws -> String

    @GET("/download/:count")
    func download(count: Int) async throws -> StreamedResponse
}

/// The user every GET returns and every POST sends.
public let sampleUser = User(
    id: 42, login: "ada", name: "Ada Lovelace", email: "ada@example.com", company: "Analytical Engines",
    location: "London", bio: "First programmer", followers: 1815, following: 1852, isAdmin: false
)

