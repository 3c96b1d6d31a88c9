import Courier
import Foundation
import Synchronization
import Testing
@testable import OpenAPIPeerContentTypes
@testable import OpenAPIPeerTypeOverrides

/// swift-openapi-generator's document of content types: JSON, plain text, a body in either,
/// a URL-encoded form, raw bytes and multipart, each way; the client courier-openapi wrote against
/// the server swift-openapi-generator wrote, which records what it read.
@Suite("swift-openapi-generator's content types document, against the server it generates", .timeLimit(.minutes(2)))
struct ContentTypesPeerTests {
    /// Whether the server recorded `line` (the tests of both transports run at once, so each
    /// sends values of its own and looks for them).
    func received(_ line: String) -> Bool {
        OpenAPIPeerContentTypes.Handler.received.withLock { $0.contains(line) }
    }

    @Test("Each content type, down and up", arguments: TransportKind.allCases)
    func contentTypes(transport: TransportKind) async throws {
        let service = ContentTypesServiceAPI(provider: try await peerProvider(transport, "ContentTypes"))
        let tag = transport.rawValue

        #expect(try await service.getExampleJSON(name: "Courier").message == "Hello, Courier!")
        try await service.postExampleJSON(body: .init(message: "json from \(tag)"))
        #expect(received("json json from \(tag)"))

        #expect(try await service.getExamplePlainText() == "A greeting in plain text: hello.")
        try await service.postExamplePlainText(body: "text from \(tag)")
        #expect(received("text text from \(tag)"))

        // The document offers JSON or text; the client asks for JSON, and the server honours it.
        #expect(try await service.getExampleMultipleContentTypes().message == "Hello in JSON")
        // The text the same response comes in is offered too, asked for by its media type.
        #expect(try await service.getExampleMultipleContentTypesAsText() == "Hello in plain text")
        try await service.postExampleMultipleContentTypes(body: .init(message: "either from \(tag)"))
        #expect(received("either as JSON either from \(tag)"))
        // Each media type of a body is offered: the text one is a function of its own.
        try await service.postExampleMultipleContentTypesText(body: "plainly from \(tag)")
        #expect(received("either as text plainly from \(tag)"))

        try await service.postExampleURLEncoded(body: .init(message: "form from \(tag) & more"))
        #expect(received("form form from \(tag) & more"))

        #expect(try await service.getExampleRawBytes() == Data([0x00, 0x73, 0x77, 0x69, 0x66, 0x74, 0xFF]))
        try await service.postExampleRawBytes(body: Data([0, 1, 254, 255, UInt8(tag.count)]))
        #expect(received("bytes 0,1,254,255,\(tag.count)"))

        // The multipart answer is its bytes (a warning says so); both parts' names are in them.
        let multipart = String(decoding: try await service.getExampleMultipart(), as: UTF8.self)
        #expect(multipart.contains("name=\"greetingTemplate\"") && multipart.contains("Hello, {name}!") && multipart.contains("Not Frank"))
        try await service.postExampleMultipart(
            greetingTemplate: Part(data: Data("{\"message\":\"Hi from \(tag)\"}".utf8), mimeType: "application/json"),
            names: Part(text: "Ada")
        )
        #expect(received("multipart template Hi from \(tag); name Ada"))
    }

    @Test("A document of models only: its User reads what swift-openapi-generator's writes, and back")
    func typeOverrides() throws {
        let uuid = UUID()
        let theirs = OpenAPIPeerTypeOverrides.Components.Schemas.User(favoritePrimeNumber: uuid.uuidString)
        let ours = try JSONDecoder().decode(OpenAPIPeerTypeOverrides.User.self, from: JSONEncoder().encode(theirs))
        let back = try JSONDecoder().decode(OpenAPIPeerTypeOverrides.Components.Schemas.User.self, from: JSONEncoder().encode(ours))
        #expect(back == theirs)
        #expect("\(ours.favoritePrimeNumber)".uppercased() == uuid.uuidString)
    }
}
