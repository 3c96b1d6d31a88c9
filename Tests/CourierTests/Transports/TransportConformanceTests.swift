import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import Foundation
import OpenAPIRuntime
import Testing

@API
protocol Conformance {
    @GET("/echo/items/:id/{name}.json")
    func item(id: String, name: String, tags: [String], limit: Int?) async throws -> Echo

    @POST("/echo/items")
    func create(title: String, count: Int) async throws -> Echo

    @URLForm
    @POST("/echo/form")
    func form(name: String, tags: [String]) async throws -> Echo

    @GET("/echo/headers")
    func headers(xRequestID: Header<String>, `x-lower-case`: Header<String>) async throws -> Echo

    @GET("/users/:id")
    func user(id: Int) async throws -> TestUser

    @GET("/status/:code")
    func status(code: Int) async throws -> TestUser

    @GET("/invalid-json")
    func invalid() async throws -> TestUser

    @GET("/empty")
    func empty() async throws -> TestUser?

    @GET("/chunked")
    func chunked() async throws -> String

    @GET("/bytes/:count")
    func bytes(count: Int) async throws -> Data

    @GET("/bytes/:count")
    func streamBytes(count: Int) async throws -> StreamedResponse

    @POST("/digest")
    func digest(data: Body<HTTPBody>) async throws -> DigestReply
}

// Serialized: the 50 MiB cases and the 200-request burst would otherwise compete with each other
// for the two cores and the connection pools, and time out for reasons that are not the transports'.
@Suite("Transport conformance: the same behaviour on URLSession and AsyncHTTPClient", .serialized, .timeLimit(.minutes(3)))
struct TransportConformanceTests {
    func api(_ transport: TransportKind) async throws -> ConformanceAPI {
        ConformanceAPI(provider: try await transport.provider())
    }

    @Test("Path values, placeholders with suffixes and query items arrive encoded", arguments: TransportKind.withHTTPS)
    func pathAndQuery(transport: TransportKind) async throws {
        let seen = try await api(transport).item(id: "../a b", name: "r?#", tags: ["x", "y z"], limit: nil)
        #expect(seen.path == "/echo/items/..%2Fa%20b/r%3F%23.json")
        #expect(seen.query == "tags=x&tags=y%20z")
    }

    @Test("JSON and form bodies arrive with their content type and length", arguments: TransportKind.withHTTPS)
    func bodies(transport: TransportKind) async throws {
        let api = try await api(transport)
        let json = try await api.create(title: "t", count: 2)
        #expect(json.bodyText == #"{"count":2,"title":"t"}"#)
        #expect(json.header("content-type") == "application/json")
        #expect(json.header("content-length") == "23")
        let form = try await api.form(name: "a&b", tags: ["1"])
        #expect(form.bodyText == "name=a%26b&tags[]=1")
        #expect(form.header("content-type") == "application/x-www-form-urlencoded")
    }

    @Test("Request headers arrive, under names spelled as given", arguments: TransportKind.withHTTPS)
    func requestHeaders(transport: TransportKind) async throws {
        let seen = try await api(transport).headers(xRequestID: "r-1", `x-lower-case`: "v")
        #expect(seen.header("x-request-id") == "r-1")
        #expect(seen.header("x-lower-case") == "v")
        // HTTP/2 sends every name in lower case (RFC 9113 §8.2.1).
        #expect(seen.rawHeaderNames.contains(transport.isHTTP2 ? "x-request-id" : "X-Request-ID"))
        #expect(seen.rawHeaderNames.contains("x-lower-case"))
    }

    @Test("Response headers are read whatever their case, repeated ones all kept", arguments: TransportKind.withHTTPS)
    func responseHeaders(transport: TransportKind) async throws {
        let response = try await transport.provider().send(Request(RequestBuilder(method: .get, path: "/cookies"), receiving: .response))
        #expect(response.headers[HTTPField.Name("x-mixed-response")!] == "v")
        let cookies = response.headers[values: .setCookie]
        // URLSession on Linux joins repeated headers into one value; AsyncHTTPClient keeps each.
        let joined = cookies.joined(separator: ", ")
        #expect(joined.contains("a=1; Path=/"))
        #expect(joined.contains("b=2; Path=/"))
        if transport != .urlSession { #expect(cookies.count == 2) }
    }

    @Test("Statuses, error bodies, decoding errors and empty bodies", arguments: TransportKind.withHTTPS)
    func statusesAndDecoding(transport: TransportKind) async throws {
        let api = try await api(transport)
        #expect(try await api.user(id: 3) == TestUser(id: 3, name: "Ada"))
        for code in [400, 401, 404, 422, 500] {
            let error = await #expect(throws: CourierError.self) { try await api.status(code: code) }
            #expect(error?.kind == .status)
            #expect(error?.response?.statusCode == code)
            #expect(error?.response?.bodyText?.contains("status \(code)") == true)
        }
        let decoding = await #expect(throws: CourierError.self) { try await api.invalid() }
        #expect(decoding?.kind == .decoding)
        #expect(try await api.empty() == nil)
    }

    @Test("An empty 204 and a HEAD request", arguments: TransportKind.withHTTPS)
    func emptyAndHead(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let noContent = try await provider.send(Request(RequestBuilder(method: .get, path: "/empty"), receiving: .response))
        #expect(noContent.statusCode == 204)
        #expect(noContent.body == nil)
        let head = try await provider.send(Request(RequestBuilder(method: .head, path: "/head"), receiving: .response))
        #expect(head.statusCode == 200)
        #expect(head.body == nil)
        #expect(head.headers[HTTPField.Name("X-Head")!] == "yes")
    }

    @Test("A chunked response of unknown length arrives whole", arguments: TransportKind.withHTTPS)
    func chunked(transport: TransportKind) async throws {
        #expect(try await api(transport).chunked() == "chunk 0;chunk 1;chunk 2;chunk 3;chunk 4;")
    }

    @Test("1 MiB and 50 MiB response bodies arrive intact", arguments: TransportKind.withHTTPS, [1 << 20, 50 << 20])
    func largeResponses(transport: TransportKind, size: Int) async throws {
        let data = try await api(transport).bytes(count: size)
        #expect(data.count == size)
        var digest = Pattern.Digest()
        data.withUnsafeBytes { digest.add($0) }
        var expected = Pattern.Digest()
        Pattern.data(count: size).withUnsafeBytes { expected.add($0) }
        #expect(digest.hash == expected.hash)
    }

    @Test("1 MiB and 50 MiB request bodies arrive intact, from memory and from a file", arguments: TransportKind.withHTTPS, [1 << 20, 50 << 20])
    func largeRequests(transport: TransportKind, size: Int) async throws {
        let bytes = Pattern.data(count: size)
        var expected = Pattern.Digest()
        bytes.withUnsafeBytes { expected.add($0) }
        let api = try await api(transport)
        #expect(try await api.digest(data: HTTPBody(bytes)) == DigestReply(count: size, hash: expected.hash))

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try await api.digest(data: .file(file)) == DigestReply(count: size, hash: expected.hash))
    }

    @Test("A body of unknown length goes out chunked", arguments: TransportKind.withHTTPS)
    func unknownLengthUpload(transport: TransportKind) async throws {
        let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
            for index in 0..<8 { continuation.yield(ArraySlice(Pattern.data(count: 1000).map { $0 &+ UInt8(index) })) }
            continuation.finish()
        }
        var expected = Pattern.Digest()
        for index in 0..<8 { expected.add(Pattern.data(count: 1000).map { $0 &+ UInt8(index) }) }
        let reply = try await api(transport).digest(data: HTTPBody(chunks, length: .unknown))
        #expect(reply == DigestReply(count: 8000, hash: expected.hash))
    }

    @Test("A streamed response is read chunk by chunk and written to a file", arguments: TransportKind.withHTTPS)
    func streamedResponse(transport: TransportKind) async throws {
        let size = 3 << 20
        let api = try await api(transport)
        let streamed = try await api.streamBytes(count: size)
        var digest = Pattern.Digest()
        var chunks = 0
        for try await chunk in streamed.body {
            digest.add(chunk)
            chunks += 1
        }
        var expected = Pattern.Digest()
        Pattern.data(count: size).withUnsafeBytes { expected.add($0) }
        #expect(digest.hash == expected.hash)
        #expect(chunks >= 1)

        #expect(try await api.streamBytes(count: 1000).collect(upTo: 1000) == Pattern.data(count: 1000))
        let tooLong = await #expect(throws: CourierError.self) { try await api.streamBytes(count: 1001).collect(upTo: 1000) }
        #expect(tooLong?.message.contains("1000") == true)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-download-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let provider = try await transport.provider()
        let response = try await provider.download(Courier.Request(.get, "/bytes/\(size)", receiving: .stream), to: file)
        #expect(response.statusCode == 200)
        #expect(try Data(contentsOf: file) == Pattern.data(count: size))
    }

    @Test("A streamed request to a failing status throws with the body", arguments: TransportKind.withHTTPS)
    func streamedFailure(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Courier.Request(.get, "/status/418", receiving: .stream))
        }
        #expect(error?.response?.statusCode == 418)
        #expect(error?.response?.bodyText?.contains("status 418") == true)
    }

    @Test("200 concurrent requests are all answered correctly", arguments: TransportKind.withHTTPS)
    func concurrency(transport: TransportKind) async throws {
        let api = try await api(transport)
        let ids = try await withThrowingTaskGroup(of: (Int, TestUser).self) { group in
            for id in 0..<200 {
                group.addTask { (id, try await api.user(id: id)) }
            }
            return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1.id }
        }
        #expect(ids.count == 200)
        #expect(ids.allSatisfy { $0.key == $0.value })
    }

    @Test("Cancellation surfaces as the cancellation kind", arguments: TransportKind.withHTTPS)
    func cancellation(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let task = Task { try await provider.send(Request(RequestBuilder(method: .get, path: "/slow"), receiving: .data)) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect((error as? CourierError)?.kind == .cancelled)
    }

    @Test("A refused connection is a transport failure", arguments: TransportKind.withHTTPS)
    func refused(transport: TransportKind) async throws {
        var provider = try await transport.provider()
        provider = Provider(baseURL: "http://127.0.0.1:1", transport: provider.transport)
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(RequestBuilder(method: .get, path: "/"), receiving: .data))
        }
        #expect(error?.kind == .transport)
    }
}
