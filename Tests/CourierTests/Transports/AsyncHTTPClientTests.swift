import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import CourierWire
import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import Testing

@Suite("AsyncHTTPClient: conveniences, and why Courier ships its own transport", .timeLimit(.minutes(2)))
struct AsyncHTTPClientTests {
    @Test("withHTTPClient creates a client, sends through it and shuts it down, also when the body throws")
    func ownedClient() async throws {
        let base = try await TestServer.baseURL()
        let user = try await Provider.withHTTPClient(baseURL: base) { provider in
            try await provider.send(Request(RequestBuilder(method: .get, path: "/users/12"), receiving: .json(TestUser.self)))
        }
        #expect(user == TestUser(id: 12, name: "Ada"))

        struct Stop: Error {}
        await #expect(throws: Stop.self) {
            try await Provider.withHTTPClient(baseURL: base) { _ in throw Stop() }
        }
    }

    @Test("Response header names keep the server's spelling, common names or not, and are found in any case")
    func responseHeaderNames() async throws {
        let name = scriptName("header-names", .asyncHTTPClient)
        let sent: [(String, String)] = [
            ("Content-Type", "text/plain"), ("content-language", "en"), ("ETag", "\"v1\""), ("etag-ish", "1"),
            ("X-Trace", "a"), ("x-lower", "b"), ("SET-COOKIE", "k=v"), ("Set-Cookie", "j=w"), ("Date", "Fri, 27 Nov 2026 06:00:00 GMT"),
        ]
        FaultServer.script(name, [.answer(status: 200, headers: sent, body: "ok")])
        let provider = Provider(baseURL: try await FaultServer.baseURL(), client: TransportKind.client)
        let response = try await provider.send(Request(.get, "/script/\(name)", receiving: .response))
        let received = response.headers.filter { $0.name.canonicalName != "content-length" }.map { ($0.name.rawName, $0.value) }
        #expect(received.map(\.0) == sent.map(\.0))
        #expect(received.map(\.1) == sent.map(\.1))
        #expect(response.headers[.contentType] == "text/plain")
        #expect(response.headers[HTTPField.Name("CONTENT-LANGUAGE")!] == "en")
        #expect(response.headers[values: .setCookie] == ["k=v", "j=w"])
        #expect(response.headers[.eTag] == "\"v1\"")
        #expect(response.bodyText == "ok")
    }

    @Test("A status keeps its code, with the standard reason phrase where NIO knows the code and none where it does not")
    func statusPhrases() async throws {
        let provider = Provider(baseURL: try await FaultServer.baseURL(), client: TransportKind.client)
        // The scripted server's phrase is always "Scripted"; NIO keeps it for no code.
        for (code, phrase) in [(200, "OK"), (201, "Created"), (202, "Accepted"), (204, "No Content"), (299, "")] {
            let name = scriptName("status-phrase-\(code)", .asyncHTTPClient)
            FaultServer.script(name, [.answer(status: code)])
            let response = try await provider.send(Request(.get, "/script/\(name)", receiving: .response))
            #expect(response.status.code == code)
            #expect(response.status.reasonPhrase == phrase, "\(code)")
        }
    }

    @Test("A body of known length within the limit is read whole, its length found in any case; a longer one, or a chunked one, streams")
    func wholeOrStreamed() async throws {
        let transport = HTTPClientTransport(client: TransportKind.client)
        let base = try #require(URL(string: try await FaultServer.baseURL()))
        func send(_ step: ScriptStep, limit: Int) async throws -> ReceivedBody {
            let name = scriptName("whole-or-streamed", .asyncHTTPClient)
            FaultServer.script(name, [step])
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/script/\(name)")
            return try await transport.sendReadingWhole(request, payload: nil, baseURL: base, limit: limit).1
        }
        func text(_ body: ReceivedBody) async throws -> (whole: Bool, text: String) {
            switch body {
            case .whole(let data): (true, String(decoding: data ?? Data(), as: UTF8.self))
            case .stream(let stream): (false, try await String(collecting: try #require(stream), upTo: 1024))
            }
        }
        let known = ScriptStep.answer(status: 200, headers: [("CONTENT-length", "5")], body: "hello")
        #expect(try await text(send(known, limit: 1024)) == (true, "hello"))
        #expect(try await text(send(known, limit: 4)) == (false, "hello"))
        let chunked = ScriptStep.stream(contentType: "text/plain", chunks: ["he", "llo"])
        #expect(try await text(send(chunked, limit: 1024)) == (false, "hello"))
    }

    @Test("A head read whole keeps its fields as received until they are read, then converts them once, repeated names and order kept")
    func fieldsConvertedOnFirstRead() async throws {
        let transport = HTTPClientTransport(client: TransportKind.client)
        let base = try #require(URL(string: try await FaultServer.baseURL()))
        let name = scriptName("deferred-fields", .asyncHTTPClient)
        let sent = [("Set-Cookie", "a=1"), ("X-Trace", "t"), ("set-cookie", "b=2")]
        FaultServer.script(name, [.answer(status: 201, headers: sent, body: "made")])
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/script/\(name)")
        let (head, body) = try await transport.sendReadingWhole(request, payload: nil, baseURL: base, limit: 1024)
        guard case .whole(let data?) = body else { Issue.record("a 4-byte body of known length was not read whole"); return }
        #expect(String(decoding: data, as: UTF8.self) == "made")
        #expect(head.status == .created)
        let received = try #require(head.deferredFields as? ReceivedFields, "the head came with its fields converted")
        #expect(!received.isConverted, "reading the status and the body converted the fields")
        let fields = head.headerFields
        #expect(received.isConverted)
        #expect(fields[values: .setCookie] == ["a=1", "b=2"])
        #expect(fields.filter { $0.name.canonicalName != "content-length" }.map(\.name.rawName) == sent.map(\.0))
        #expect(fields[.contentLength] == "4")
        #expect(head.headerFields == fields)
    }

    @Test("Content-Length is found in any case of its letters, and only as itself")
    func contentLengthName() {
        for name in ["Content-Length", "content-length", "CONTENT-LENGTH", "cOnTeNt-LeNgTh"] {
            #expect(HTTPClientTransport.isContentLength(name), "\(name)")
        }
        for name in ["content\rlength", "content_length", "content-lengths", "content-lengt", "Content-Type", ""] {
            #expect(!HTTPClientTransport.isContentLength(name), "\(name)")
        }
    }

    @Test("A borrowed client sends request headers (Papyrus' AsyncHTTPClient transport sent none)")
    func borrowedClient() async throws {
        let provider = Provider(baseURL: try await TestServer.baseURL(), client: TransportKind.client)
        var request = RequestBuilder(method: .post, path: "/echo/borrowed")
        request.addHeader("X-Request-ID", value: "r-7")
        request.setAuthorization(.bearer("t"))
        request.addField("a", value: 1)
        let seen = try await provider.echo(request)
        #expect(seen.header("x-request-id") == "r-7")
        #expect(seen.header("authorization") == "Bearer t")
        #expect(seen.header("content-type") == "application/json")
        #expect(seen.bodyText == #"{"a":1}"#)
    }

    @Test("The shipped OpenAPI transport lower-cases header names and drops repeated response headers; ours does neither")
    func shippedTransportDefects() async throws {
        let base = try await TestServer.baseURL()
        let shipped = Provider(baseURL: base, transport: AsyncHTTPClientTransport(configuration: .init(client: TransportKind.client)))
        let ours = Provider(baseURL: base, client: TransportKind.client)

        var request = RequestBuilder(method: .get, path: "/echo/case")
        request.addHeader("X-Request-ID", value: "r")
        #expect(try await shipped.echo(request).rawHeaderNames.contains("x-request-id"))
        #expect(try await ours.echo(request).rawHeaderNames.contains("X-Request-ID"))

        let cookies = RequestBuilder(method: .get, path: "/cookies")
        #expect(try await shipped.send(Request(cookies, receiving: .response)).headers[values: .setCookie].count == 1)
        #expect(try await ours.send(Request(cookies, receiving: .response)).headers[values: .setCookie].count == 2)
    }
}
