import Courier
import Foundation
import Synchronization
import Testing
@testable import OpenAPIPeerPetstore

/// swift-openapi-generator's reference petstore (deep-object queries, enums with odd values,
/// several success and error bodies, forms, raw bytes and multipart): every operation of the
/// client courier-openapi wrote, against the server swift-openapi-generator wrote.
@Suite("swift-openapi-generator's petstore, against the server it generates", .timeLimit(.minutes(2)))
struct PetstorePeerTests {
    func received(_ line: String) -> Bool {
        OpenAPIPeerPetstore.Handler.received.withLock { $0.contains(line) }
    }

    @Test("listPets: each kind of query parameter and the header arrive as the document says", arguments: TransportKind.allCases)
    func listPets(transport: TransportKind) async throws {
        let pets = PetsEndpointsAPI(provider: try await peerProvider(transport, "Petstore"))
        let answer = try await pets.listPets(
            limit: 10, habitat: .water, feeds: [.carnivore, .herbivore], myRequestUUID: "r-\(transport)",
            sort: .init(id: "age", name: "desc"), filter: .init(name: "Rex", state: "calm"),
            since: Date(timeIntervalSince1970: 1_700_000_000), jsonFilters: nil
        )
        #expect(answer.status == 200 && answer.error == nil)
        #expect(answer.pets?.map(\.name) == ["filter Rex calm", "habitat water", "feeds carnivore,herbivore", "since 1700000000", "sort age desc", "request r-\(transport)"])

        // Every optional parameter left out: the client's struct gives each a default of `nil`.
        let minimal = try await pets.listPets(filter: .init(name: "Tom"))
        #expect(minimal.pets?.map(\.name) == ["filter Tom -"])

        // The `default` response: an error body, typed, not thrown.
        let refused = try await pets.listPets(limit: 0, filter: .init(name: "Tom"))
        #expect(refused.status == 400 && refused.pets == nil)
        #expect(refused.error?.code == 400 && refused.error?.meSage == "limit must be positive")
    }

    @Test("createPet and createPetWithForm: a pet created, a client error typed", arguments: TransportKind.allCases)
    func createPet(transport: TransportKind) async throws {
        let pets = PetsEndpointsAPI(provider: try await peerProvider(transport, "Petstore"))
        let created = try await pets.createPet(body: .init(name: "Fluffy", kind: .bigElephant1, tag: "t"))
        #expect(created.status == 201 && created.pet?.name == "Fluffy" && created.pet?.kind == .bigElephant1 && created.pet?.id == 42)
        let refused = try await pets.createPet(body: .init(name: ""))
        #expect(refused.status == 400 && refused.pet == nil && refused.error?.code == 1)

        try await pets.createPetWithForm(body: .init(name: "Form \(transport)", kind: .dog, tag: "x y"))
        #expect(received("form Form \(transport) x y"))
    }

    @Test("Stats, probe, update, avatar and multipart", arguments: TransportKind.allCases)
    func theRest(transport: TransportKind) async throws {
        let store = PetstoreAPI(provider: try await peerProvider(transport, "Petstore"))
        #expect(try await store.getStats().count == 3)
        try await store.postStats(body: .init(count: transport == .urlSession ? 101 : 102))
        #expect(received("stats \(transport == .urlSession ? 101 : 102)"))
        try await store.probe()

        let updated = try await store.updatePet(petId: 7, body: .init(name: "Renamed \(transport)"))
        #expect(updated.status == 204 && updated.error == nil)
        #expect(received("update 7 Renamed \(transport)"))
        let unchanged = try await store.updatePet(petId: 8, body: .init())
        #expect(unchanged.status == 400 && unchanged.error?.message == "pet 8: nothing to change")

        let avatar = try await store.uploadAvatarForPet(petId: 1, body: Data([1, 2, 3]))
        #expect(avatar.status == 200 && avatar.body == Data([3, 2, 1]))
        let missing = try await store.uploadAvatarForPet(petId: 2, body: Data())
        #expect(missing.status == 412)
        // A JSON body whose schema is a bare string: the string, without its quotes.
        #expect(missing.error == "pet 2: no avatar")
        let down = try await store.uploadAvatarForPet(petId: 3, body: Data([0]))
        #expect(down.status == 500 && down.error == "the avatar store is down")

        let form = String(decoding: try await store.multipartDownloadTyped(), as: UTF8.self)
        #expect(form.contains("name=\"log\"") && form.contains("name=\"keyword\"") && form.contains("fluffy"))
        try await store.multipartUploadTyped(
            log: Part(text: "started \(transport)"),
            metadata: Part(data: Data("{\"createdAt\":\"2026-11-26T00:00:00Z\"}".utf8), mimeType: "application/json"),
            keyword: Part(text: "calm")
        )
        #expect(received("multipart log started \(transport); metadata 1795651200; keyword calm"))
    }

    /// The five calls the OpenAI article sets beside swift-openapi-generator's (lines and
    /// characters between the markers, indentation left out).
    @Test("The five calls of the article's comparison", arguments: TransportKind.allCases)
    func fiveCalls(transport: TransportKind) async throws {
        let pets = PetsEndpointsAPI(provider: try await peerProvider(transport, "Petstore"))
        let store = PetstoreAPI(provider: try await peerProvider(transport, "Petstore"))
        // calls: begin
        let listed = try await pets.listPets(limit: 10, filter: ListPetsFilter(name: "Fluffy")).pets
        let pet = try await pets.createPet(body: CreatePetRequest(name: "Fluffy")).pet
        let stats = try await store.getStats()
        let updated = try await store.updatePet(petId: 1, body: UpdatePetBody(name: "Rex"))
        let avatar = try await store.uploadAvatarForPet(petId: 1, body: Data([1, 2])).body
        // calls: end
        #expect(listed?.first?.name == "filter Fluffy -" && pet?.name == "Fluffy" && stats.count == 3)
        #expect(updated.status == 204 && avatar == Data([2, 1]))
    }
}
