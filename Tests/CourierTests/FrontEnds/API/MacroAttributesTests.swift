import Courier
import CourierTestSupport
import Foundation
import Testing

struct Stamp: Codable, Equatable, Sendable {
    var at: Date
}

extension JSONEncoder {
    static var isoDates: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

/// Sends bodies as `key: value` lines, to prove that custom coders plug in.
struct LinesEncoder: BodyEncoder {
    var contentType: String { "text/x-lines; charset=utf-8" }
    func encode<T: Encodable>(_ value: T) throws -> Data {
        let tree = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any] ?? [:]
        return Data(tree.keys.sorted().map { "\($0): \(tree[$0] ?? "")" }.joined(separator: "\n").utf8)
    }
    func with(keyMapping: KeyMapping) -> any BodyEncoder { self }
}

/// Decodes JSON and marks an `Echo` it produced, to prove that it was used.
struct MarkingDecoder: BodyDecoder {
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let value = try JSONDecoder().decode(T.self, from: data)
        guard var echo = value as? Echo else { return value }
        echo.method = "decoded:" + echo.method
        return echo as? T ?? value
    }
    func with(keyMapping: KeyMapping) -> any BodyDecoder { self }
}

@API
@Headers(["X-Client-Version": "1.2.3", "Cache-Control": "no-cache"])
@Authorization(.bearer("protocol-token"))
protocol Attributed {
    @Headers(["Cache-Control": "max-age=86400"])
    @GET("/echo/user")
    func overrideHeader() async throws -> Echo

    @Authorization(.basic(username: "ada", password: "P@ssw0rd"))
    @GET("/echo/user")
    func overrideAuthorization() async throws -> Echo

    @GET("/echo/headers")
    func variableHeaders(xRequestID: Header<String>, apiKey `x-api-KEY`: Header<String>, customHeader: Header<Int>) async throws -> Echo

    @JSON(encoder: .isoDates)
    @POST("/echo/stamps")
    func stamp(at: Date) async throws -> Echo

    @KeyMapping(.snakeCase)
    @POST("/echo/snake")
    func snake(firstName: String, tagList: [String]) async throws -> Echo

    @Coders(encoder: LinesEncoder(), decoder: MarkingDecoder())
    @POST("/echo/lines")
    func lines(b: Int, a: String) async throws -> Echo

    @Multipart
    @POST("/echo/upload/:id")
    func upload(id: Int, file1: Part, file2: Part, note: Part?) async throws -> Echo

    @HTTP("/echo/cache/:key", method: "PURGE")
    func purge(key: String) async throws -> Echo

    @GET("/users/:id")
    func typed(id: Int) async throws(CourierError) -> TestUser

    @GET("/users/:id")
    func user(id: Int, callback: @escaping (Result<TestUser, any Error>) -> Void)

    @GET("/status/500")
    func failing(completion: @escaping (Result<Void, any Error>) -> Void)

    @GET("/users/:id")
    func response(id: Int, completion: @escaping (Response) -> Void)
}

@Suite("Every macro attribute against the server", .timeLimit(.minutes(2)))
struct MacroAttributesTests {
    func api() async throws -> AttributedAPI {
        AttributedAPI(provider: try await TestServer.provider())
    }

    @Test("Protocol headers and authorization apply; a function's header of the same name replaces the protocol's")
    func headerScopes() async throws {
        let seen = try await api().overrideHeader()
        #expect(seen.headerValues("cache-control") == ["max-age=86400"])
        #expect(seen.header("x-client-version") == "1.2.3")
        #expect(seen.headerValues("authorization") == ["Bearer protocol-token"])
    }

    @Test("A function's authorization replaces the protocol's")
    func authorizationScopes() async throws {
        let seen = try await api().overrideAuthorization()
        #expect(seen.headerValues("authorization") == ["Basic " + Data("ada:P@ssw0rd".utf8).base64EncodedString()])
    }

    @Test("Header parameters: acronyms kept, raw identifiers sent exactly as written")
    func headerNames() async throws {
        let provider = try await TestServer.provider()
        let names = Log()
        let watching = provider.intercept { req, next in
            for field in req.headers { names.append(field.name.rawName) }
            return try await next(req)
        }
        let seen = try await AttributedAPI(provider: watching).variableHeaders(xRequestID: "r-1", apiKey: "k", customHeader: 7)
        #expect(seen.header("x-request-id") == "r-1")
        #expect(seen.header("x-api-key") == "k")
        #expect(seen.header("custom-header") == "7")
        // What Courier hands the transport, spelled exactly, and what the server saw.
        #expect(seen.rawHeaderNames.contains("X-Request-ID"))
        #expect(seen.rawHeaderNames.contains("x-api-KEY"))
        #expect(names.entries.contains("X-Request-ID"))
        #expect(names.entries.contains("x-api-KEY"))
        #expect(names.entries.contains("Custom-Header"))
    }

    @Test("@JSON(encoder:) encodes with the given encoder")
    func jsonEncoder() async throws {
        let seen = try await api().stamp(at: Date(timeIntervalSince1970: 0))
        #expect(seen.bodyText == #"{"at":"1970-01-01T00:00:00Z"}"#)
    }

    @Test("@KeyMapping on a function")
    func keyMapping() async throws {
        let seen = try await api().snake(firstName: "Ada", tagList: ["a"])
        #expect(seen.bodyText == #"{"first_name":"Ada","tag_list":["a"]}"#)
    }

    @Test("@Coders plugs in custom coders through the public protocols")
    func customCoders() async throws {
        let seen = try await api().lines(b: 2, a: "x")
        #expect(seen.method == "decoded:POST")
        #expect(seen.header("content-type") == "text/x-lines; charset=utf-8")
        #expect(seen.bodyText == "a: x\nb: 2")
    }

    @Test("@Multipart sends every part with its name, file name and MIME type, file parts streamed from disk")
    func multipart() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-part-\(UUID().uuidString).txt")
        let fileBytes = Data((0..<200_000).map { UInt8($0 % 251) })
        try fileBytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let seen = try await api().upload(
            id: 3,
            file1: Part(data: Data("hello".utf8), fileName: "hello.txt", mimeType: "text/plain"),
            file2: Part(fileURL: file, mimeType: "application/octet-stream"),
            note: nil
        )
        let contentType = try #require(seen.header("content-type"))
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        #expect(seen.header("content-length") == String(seen.bodyData.count))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        let parts = try MultipartParser.parse(seen.bodyData, boundary: boundary)
        #expect(parts.map(\.disposition) == [
            #"form-data; name="file1"; filename="hello.txt""#,
            #"form-data; name="file2"; filename="\#(file.lastPathComponent)""#,
        ])
        #expect(parts.map(\.contentType) == ["text/plain", "application/octet-stream"])
        #expect(parts.first?.body == Data("hello".utf8))
        #expect(parts.last?.body == fileBytes)
    }

    @Test("A file part that cannot be read fails with an error naming the file")
    func unreadableFilePart() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/courier.bin")
        let error = await #expect(throws: CourierError.self) {
            try await api().upload(id: 1, file1: Part(fileURL: missing), file2: Part(text: "x"), note: nil)
        }
        #expect(error?.kind == .encoding)
        #expect(error?.message.contains("/nonexistent/courier.bin") == true)
    }

    @Test("@HTTP sends a custom method")
    func customMethod() async throws {
        let seen = try await api().purge(key: "k")
        #expect(seen.method == "PURGE")
        #expect(seen.path == "/echo/cache/k")
    }

    @Test("Typed throws: the error is a CourierError without a cast")
    func typedThrows() async throws {
        #expect(try await api().typed(id: 4) == TestUser(id: 4, name: "Ada"))
        let failing = AttributedAPI(provider: Provider(baseURL: "http://127.0.0.1:1"))
        do {
            _ = try await failing.typed(id: 1)
            Issue.record("expected a failure")
        } catch {
            #expect(error.kind == .transport)
        }
    }

    @Test("Completion handlers: Result of a value, Result of Void, Response")
    func completionHandlers() async throws {
        let api = try await api()
        let user = try await withCheckedThrowingContinuation { continuation in
            api.user(id: 6) { continuation.resume(with: $0) }
        }
        #expect(user == TestUser(id: 6, name: "Ada"))

        let failure: (any Error)? = await withCheckedContinuation { continuation in
            api.failing { result in
                if case .failure(let error) = result { continuation.resume(returning: error) } else { continuation.resume(returning: nil) }
            }
        }
        #expect((failure as? CourierError)?.response?.statusCode == 500)

        let response = await withCheckedContinuation { continuation in
            api.response(id: 2) { continuation.resume(returning: $0) }
        }
        #expect(response.statusCode == 200)
        #expect(response.error == nil)

        let offline = AttributedAPI(provider: Provider(baseURL: "http://127.0.0.1:1"))
        let missing = await withCheckedContinuation { continuation in
            offline.response(id: 2) { continuation.resume(returning: $0) }
        }
        #expect(missing.statusCode == nil)
        #expect(missing.error?.kind == .transport)
    }
}

/// Splits a multipart body into its parts, for checking what the server received.
enum MultipartParser {
    struct Part {
        var disposition: String?
        var contentType: String?
        var body: Data
    }

    struct Malformed: Error {}

    static func parse(_ data: Data, boundary: String) throws -> [Part] {
        let delimiter = Data("--\(boundary)".utf8)
        var parts: [Part] = []
        var ranges: [Range<Data.Index>] = []
        var searchStart = data.startIndex
        while let found = data.range(of: delimiter, in: searchStart..<data.endIndex) {
            ranges.append(found)
            searchStart = found.upperBound
        }
        guard ranges.count >= 2 else { throw Malformed() }
        for (current, next) in zip(ranges, ranges.dropFirst()) {
            var chunk = data[current.upperBound..<next.lowerBound]
            guard chunk.starts(with: Data("\r\n".utf8)) else { throw Malformed() }
            chunk = chunk.dropFirst(2)
            guard let headerEnd = chunk.range(of: Data("\r\n\r\n".utf8)) else { throw Malformed() }
            let headerText = String(decoding: chunk[chunk.startIndex..<headerEnd.lowerBound], as: UTF8.self)
            var body = chunk[headerEnd.upperBound...]
            if body.suffix(2) == Data("\r\n".utf8) { body = body.dropLast(2) }
            var part = Part(body: Data(body))
            for line in headerText.components(separatedBy: "\r\n") {
                let pieces = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pieces.count == 2 else { continue }
                switch pieces[0].lowercased() {
                case "content-disposition": part.disposition = pieces[1]
                case "content-type": part.contentType = pieces[1]
                default: break
                }
            }
            parts.append(part)
        }
        return parts
    }
}
