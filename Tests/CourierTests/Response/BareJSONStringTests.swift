import Courier
import CourierTestSupport
import Foundation
import Testing

@API
protocol Quotes {
    @GET("/script/:name")
    func quote(name: String) async throws -> String
}

struct QuoteEndpoint: Endpoint {
    typealias Response = String
    var name: String
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/script/\(name)") }
}

@EndpointResponse
struct QuoteResponse: Sendable {
    @ResponseStatusCode var status: Int
    @ResponseBody var body: String?
    @ResponseErrorBody(statuses: [412]) var error: String?
}

struct QuoteWithErrorEndpoint: Endpoint {
    typealias Response = QuoteResponse
    var name: String
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/script/\(name)") }
}

@Suite("A String read from a JSON body that is a bare JSON string", .timeLimit(.minutes(1)))
struct BareJSONStringTests {
    @Test("A JSON string is the string, escapes decoded; text, or JSON that is not a string, stays as it came", arguments: TransportKind.allCases)
    func bareString(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(5))
        let api = QuotesAPI(provider: provider)
        let cases: [(contentType: String, body: String, expected: String)] = [
            ("application/json", #" "it\u2019s \"quoted\"" "#, "it\u{2019}s \"quoted\""),
            ("application/problem+json; charset=utf-8", #""gone""#, "gone"),
            ("text/plain", #""kept""#, #""kept""#),
            ("application/json", #"{"a":1}"#, #"{"a":1}"#),
        ]
        for (contentType, body, expected) in cases {
            let name = scriptName("bare-string", transport)
            FaultServer.script(name, answer: { _ in .answer(status: 200, headers: [("Content-Type", contentType)], body: body) })
            #expect(try await api.quote(name: name) == expected, "@API, \(contentType)")
            #expect(try await provider.send(QuoteEndpoint(name: name)) == expected, "Endpoint, \(contentType)")
            if contentType.contains("json"), !body.hasPrefix("{") {
                #expect(try await provider.send(Request(.get, "/script/\(name)", receiving: .json(String.self))) == expected, "fluent, \(contentType)")
            }
        }
        let name = scriptName("bare-string-error", transport)
        FaultServer.script(name, answer: { _ in .answer(status: 412, headers: [("Content-Type", "application/json")], body: #""no avatar""#) })
        let response = try await provider.send(QuoteWithErrorEndpoint(name: name))
        #expect(response.status == 412 && response.error == "no avatar")
    }
}
