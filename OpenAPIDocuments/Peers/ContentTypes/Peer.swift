public import Foundation
public import OpenAPIRuntime
import Synchronization

/// The server swift-openapi-generator writes for this folder's openapi.yaml (Types.swift,
/// Server.swift): each GET answers a fixed value in its media type, and each POST records what
/// it read in `Handler.received`, which the tests look in.
public enum ContentTypesPeer {
    public static func register(on transport: any ServerTransport, serverURL: URL) throws {
        try Handler().registerHandlers(on: transport, serverURL: serverURL)
    }
}

struct Handler: APIProtocol {
    /// What the POSTs read, one line each: the operation, then the value.
    static let received = Mutex<[String]>([])

    static func record(_ line: String) { received.withLock { $0.append(line) } }

    static func text(_ body: HTTPBody) async throws -> String { try await String(collecting: body, upTo: 1 << 16) }

    func getExampleJSON(_ input: Operations.getExampleJSON.Input) async throws -> Operations.getExampleJSON.Output {
        .ok(.init(body: .json(.init(message: "Hello, \(input.query.name ?? "Stranger")!"))))
    }

    func postExampleJSON(_ input: Operations.postExampleJSON.Input) async throws -> Operations.postExampleJSON.Output {
        switch input.body { case .json(let greeting): Self.record("json \(greeting.message)") }
        return .accepted(.init())
    }

    func getExamplePlainText(_ input: Operations.getExamplePlainText.Input) async throws -> Operations.getExamplePlainText.Output {
        .ok(.init(body: .plainText("A greeting in plain text: hello.")))
    }

    func postExamplePlainText(_ input: Operations.postExamplePlainText.Input) async throws -> Operations.postExamplePlainText.Output {
        switch input.body { case .plainText(let body): Self.record("text \(try await Self.text(body))") }
        return .accepted(.init())
    }

    func getExampleMultipleContentTypes(_ input: Operations.getExampleMultipleContentTypes.Input) async throws -> Operations.getExampleMultipleContentTypes.Output {
        let accepted = input.headers.accept.map(\.contentType)
        if accepted.contains(.plainText) && !accepted.contains(.json) {
            return .ok(.init(body: .plainText("Hello in plain text")))
        }
        return .ok(.init(body: .json(.init(message: "Hello in JSON"))))
    }

    func postExampleMultipleContentTypes(_ input: Operations.postExampleMultipleContentTypes.Input) async throws -> Operations.postExampleMultipleContentTypes.Output {
        switch input.body {
        case .json(let greeting): Self.record("either as JSON \(greeting.message)")
        case .plainText(let body): Self.record("either as text \(try await Self.text(body))")
        }
        return .accepted(.init())
    }

    func postExampleURLEncoded(_ input: Operations.postExampleURLEncoded.Input) async throws -> Operations.postExampleURLEncoded.Output {
        switch input.body { case .urlEncodedForm(let form): Self.record("form \(form.message)") }
        return .accepted(.init())
    }

    func getExampleRawBytes(_ input: Operations.getExampleRawBytes.Input) async throws -> Operations.getExampleRawBytes.Output {
        .ok(.init(body: .binary(HTTPBody([0x00, 0x73, 0x77, 0x69, 0x66, 0x74, 0xFF]))))
    }

    func postExampleRawBytes(_ input: Operations.postExampleRawBytes.Input) async throws -> Operations.postExampleRawBytes.Output {
        switch input.body {
        case .binary(let body):
            let bytes = try await [UInt8](collecting: body, upTo: 1 << 16)
            Self.record("bytes \(bytes.map { String($0) }.joined(separator: ","))")
        }
        return .accepted(.init())
    }

    func getExampleMultipart(_ input: Operations.getExampleMultipart.Input) async throws -> Operations.getExampleMultipart.Output {
        typealias Part = Operations.getExampleMultipart.Output.Ok.Body.multipartFormPayload
        let parts: [Part] = [
            .greetingTemplate(.init(payload: .init(body: .init(message: "Hello, {name}!")))),
            .names(.init(payload: .init(headers: .init(x_hyphen_name_hyphen_locale: "en"), body: "Frank"))),
            .names(.init(payload: .init(body: "Not Frank"))),
        ]
        return .ok(.init(body: .multipartForm(MultipartBody(parts))))
    }

    func postExampleMultipart(_ input: Operations.postExampleMultipart.Input) async throws -> Operations.postExampleMultipart.Output {
        var fields: [String] = []
        switch input.body {
        case .multipartForm(let form):
            for try await part in form {
                switch part {
                case .greetingTemplate(let template): fields.append("template \(template.payload.body.message)")
                case .names(let name):
                    let locale = name.payload.headers.x_hyphen_name_hyphen_locale.map { " (\($0))" } ?? ""
                    fields.append("name \(try await Self.text(name.payload.body))\(locale)")
                case .undocumented(let raw): fields.append("undocumented \(raw.name ?? "")")
                }
            }
        }
        Self.record("multipart " + fields.joined(separator: "; "))
        return .accepted(.init())
    }
}
