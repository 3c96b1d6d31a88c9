import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@API
protocol Blobs {
    @GET("/script/:name")
    func blob(name: String) async throws -> Data

    @HEAD("/script/:name")
    func probe(name: String) async throws -> Data
}

struct BlobEndpoint: Endpoint {
    typealias Response = Data
    var method: HTTPRequest.Method = .get
    var name: String
    func makeRequest() -> RequestBuilder { RequestBuilder(method: method, path: "/script/\(name)") }
}

/// `Data` for a response that has no body by definition — `204`, `205`, the answer to `HEAD` —
/// is empty bytes in every front-end, as the data serializers users know return; any other empty
/// body is still an error.
@Suite("Data of a response without a body by definition is empty, in every front-end", .serialized, .timeLimit(.minutes(2)))
struct EmptyDataTests {
    /// What the three front-ends return for a script that answers `step`, each sent with `method`.
    func data(_ transport: TransportKind, _ method: HTTPRequest.Method, _ step: ScriptStep) async throws -> [Data] {
        let provider = try await transport.faultProvider(idle: .seconds(5))
        var results: [Data] = []
        for frontEnd in 0..<3 {
            let name = scriptName("empty-data-\(frontEnd)", transport)
            FaultServer.script(name, [step])
            switch frontEnd {
            case 0:
                results.append(try await provider.send(Request(RequestBuilder(method: method, path: "/script/\(name)"), receiving: .data)))
            case 1:
                let api = BlobsAPI(provider: provider)
                results.append(method == .head ? try await api.probe(name: name) : try await api.blob(name: name))
            default:
                results.append(try await provider.send(BlobEndpoint(method: method, name: name)))
            }
        }
        return results
    }

    @Test("204 and 205 give empty bytes", arguments: TransportKind.allCases)
    func noContent(transport: TransportKind) async throws {
        #expect(try await data(transport, .get, .answer(status: 204)) == [Data(), Data(), Data()])
        #expect(try await data(transport, .get, .answer(status: 205)) == [Data(), Data(), Data()])
    }

    @Test("The answer to HEAD gives empty bytes, whatever length it announces", arguments: TransportKind.allCases)
    func head(transport: TransportKind) async throws {
        #expect(try await data(transport, .head, .answer(status: 200, headers: [("Content-Length", "5")])) == [Data(), Data(), Data()])
    }

    @Test("A 200 with an empty body is still an error", arguments: TransportKind.allCases)
    func emptyOK(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(5))
        let name = scriptName("empty-200", transport)
        FaultServer.script(name, [.answer(status: 200)])
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/script/:name", receiving: .data).parameter("name", name))
        }
        #expect(error?.kind == .decoding)
    }
}
