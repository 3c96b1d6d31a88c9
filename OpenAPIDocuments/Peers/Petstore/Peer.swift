public import Foundation
public import OpenAPIRuntime
import Synchronization

/// The server swift-openapi-generator writes for swift-openapi-generator's reference petstore
/// (Types.swift, Server.swift): pets kept in memory, the statistics of what was posted, and each
/// upload recorded in `Handler.received`, which the tests look in.
public enum PetstorePeer {
    public static func register(on transport: any ServerTransport, serverURL: URL) throws {
        try Handler().registerHandlers(on: transport, serverURL: serverURL)
    }
}

struct Handler: APIProtocol {
    /// What the requests without an answer to show it read, one line each.
    static let received = Mutex<[String]>([])

    static func record(_ line: String) { received.withLock { $0.append(line) } }

    static func text(_ body: HTTPBody) async throws -> String { try await String(collecting: body, upTo: 1 << 16) }

    func listPets(_ input: Operations.listPets.Input) async throws -> Operations.listPets.Output {
        let query = input.query
        guard query.limit ?? 1 > 0 else {
            return .default(statusCode: 400, .init(body: .json(.init(code: 400, me_dollar_sage: "limit must be positive"))))
        }
        // One pet per query parameter read, so that the test sees each arrive as sent.
        var pets: [Components.Schemas.Pet] = [.init(id: 1, name: "filter \(query.filter.name) \(query.filter.state ?? "-")")]
        if let habitat = query.habitat { pets.append(.init(id: 2, name: "habitat \(habitat.rawValue)")) }
        if let feeds = query.feeds { pets.append(.init(id: 3, name: "feeds \(feeds.map(\.rawValue).joined(separator: ","))")) }
        if let since = query.since { pets.append(.init(id: 4, name: "since \(Int(since.timeIntervalSince1970))")) }
        if let sort = query.sort { pets.append(.init(id: 5, name: "sort \(sort.id) \(sort.name ?? "-")")) }
        if let requestID = input.headers.My_hyphen_Request_hyphen_UUID { pets.append(.init(id: 6, name: "request \(requestID)")) }
        pets = Array(pets.prefix(Int(query.limit ?? 10)))
        let requestID = input.headers.My_hyphen_Request_hyphen_UUID ?? "none"
        return .ok(.init(headers: .init(My_hyphen_Response_hyphen_UUID: "answer to \(requestID)"), body: .json(pets)))
    }

    func createPet(_ input: Operations.createPet.Input) async throws -> Operations.createPet.Output {
        let request = switch input.body { case .json(let request): request }
        guard !request.name.isEmpty else {
            return .clientError(statusCode: 400, .init(headers: .init(X_hyphen_Reason: "no name"), body: .json(.init(code: 1))))
        }
        let pet = Components.Schemas.Pet(id: 42, name: request.name, tag: request.tag, genome: request.genome, kind: request.kind)
        return .created(.init(headers: .init(X_hyphen_Extra_hyphen_Arguments: input.headers.X_hyphen_Extra_hyphen_Arguments), body: .json(pet)))
    }

    func createPetWithForm(_ input: Operations.createPetWithForm.Input) async throws -> Operations.createPetWithForm.Output {
        switch input.body { case .urlEncodedForm(let form): Self.record("form \(form.name) \(form.tag ?? "-")") }
        return .noContent(.init())
    }

    func getStats(_ input: Operations.getStats.Input) async throws -> Operations.getStats.Output {
        .ok(.init(body: .json(.init(count: 3))))
    }

    func postStats(_ input: Operations.postStats.Input) async throws -> Operations.postStats.Output {
        switch input.body {
        case .json(let stats): Self.record("stats \(stats.count)")
        case .plainText(let body): Self.record("stats as text \(try await Self.text(body))")
        case .binary(let body): Self.record("stats as bytes \(try await Self.text(body))")
        }
        return .accepted(.init())
    }

    func probe(_ input: Operations.probe.Input) async throws -> Operations.probe.Output {
        .noContent(.init())
    }

    func updatePet(_ input: Operations.updatePet.Input) async throws -> Operations.updatePet.Output {
        guard case .json(let change) = input.body, let name = change.name else {
            return .badRequest(.init(body: .json(.init(message: "pet \(input.path.petId): nothing to change"))))
        }
        Self.record("update \(input.path.petId) \(name)")
        return .noContent(.init())
    }

    func uploadAvatarForPet(_ input: Operations.uploadAvatarForPet.Input) async throws -> Operations.uploadAvatarForPet.Output {
        let bytes = switch input.body { case .binary(let body): try await [UInt8](collecting: body, upTo: 1 << 16) }
        if bytes.isEmpty { return .preconditionFailed(.init(body: .json("pet \(input.path.petId): no avatar"))) }
        if bytes == [0] { return .internalServerError(.init(body: .plainText("the avatar store is down"))) }
        return .ok(.init(body: .binary(HTTPBody(bytes.reversed()))))
    }

    func multipartDownloadTyped(_ input: Operations.multipartDownloadTyped.Input) async throws -> Operations.multipartDownloadTyped.Output {
        typealias Part = Components.Responses.MultipartDownloadTypedResponse.Body.multipartFormPayload
        let parts: [Part] = [
            .log(.init(payload: .init(headers: .init(x_hyphen_log_hyphen_type: .structured), body: "{\"event\":\"start\"}"))),
            .metadata(.init(payload: .init(body: .init(createdAt: Date(timeIntervalSince1970: 1_795_687_200))))),
            .keyword(.init(payload: .init(body: "fluffy"))),
        ]
        return .ok(.init(body: .multipartForm(MultipartBody(parts))))
    }

    func multipartUploadTyped(_ input: Operations.multipartUploadTyped.Input) async throws -> Operations.multipartUploadTyped.Output {
        var fields: [String] = []
        switch input.body {
        case .multipartForm(let form):
            for try await part in form {
                switch part {
                case .log(let log): fields.append("log \(try await Self.text(log.payload.body))")
                case .metadata(let metadata): fields.append("metadata \(Int(metadata.payload.body.createdAt.timeIntervalSince1970))")
                case .keyword(let keyword): fields.append("keyword \(try await Self.text(keyword.payload.body))")
                case .undocumented(let raw): fields.append("undocumented \(raw.name ?? "")")
                }
            }
        }
        Self.record("multipart " + fields.joined(separator: "; "))
        return .accepted(.init())
    }
}
