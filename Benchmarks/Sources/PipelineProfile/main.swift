// Sends GET requests through Courier's whole pipeline to an in-memory transport, for profiling
// with `valgrind --tool=callgrind` (instruction counts are repeatable on a noisy machine).
import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

struct User: Codable, Sendable {
    var id: Int
    var login: String
    var name: String
    var email: String
    var company: String
    var location: String
    var bio: String
    var followers: Int
    var following: Int
    var isAdmin: Bool
}

@API
protocol Users {
    @GET("/users/:id")
    func user(id: Int) async throws -> User
}

let body = Data(#"{"id":42,"login":"ada","name":"Ada Lovelace","email":"ada@example.com","company":"Analytical Engines","location":"London","bio":"First programmer","followers":1815,"following":1852,"isAdmin":false}"#.utf8)

struct CannedTransport: ClientTransport {
    func send(_ request: HTTPRequest, body _: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json", .contentLength: String(body.count)]), HTTPBody(body))
    }
}

let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 20000
let mode = CommandLine.arguments.dropFirst(2).first ?? "courier"
/// Off the main actor, as a server's request handlers run: no executor hop per call.
nonisolated func run(iterations: Int, mode: String) async throws -> Int {
    let api = UsersAPI(provider: Provider(baseURL: "http://127.0.0.1:8080", transport: CannedTransport()))
    let decoder = JSONDecoder()
    var total = 0
    for _ in 0..<iterations {
        if mode == "courier" {
            total &+= try await api.user(id: 42).followers
        } else {
            total &+= try decoder.decode(User.self, from: body).followers
        }
    }
    return total
}

print(try await Task.detached { try await run(iterations: iterations, mode: mode) }.value)
