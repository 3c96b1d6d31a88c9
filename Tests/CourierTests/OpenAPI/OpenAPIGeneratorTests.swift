import Courier
@testable import CourierOpenAPIGenerator
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// `courier-openapi`: the client it writes for `Documents/bookshop.yaml` is the one committed in
/// `Generated/Bookshop.swift` (so it compiles here, without warnings, with the suite), and that
/// client's calls succeed against a server written by hand from the same document, on both
/// transports. Beside it, the rules for names, what cannot be generated as written (a warning
/// naming its JSON pointer) and documents that cannot be read (an error naming the line).
@Suite("Generating a client from OpenAPI", .timeLimit(.minutes(2)))
struct OpenAPIGeneratorTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func document(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("Documents/\(name)"), encoding: .utf8)
    }

    func generate(_ text: String, name: String? = nil) throws -> ClientGenerator.Output {
        try ClientGenerator(configuration: .init(name: name)).generate(text, fileName: "test.yaml")
    }

    @Test("The committed clients are what the generator writes for their documents", arguments: [("bookshop.yaml", "Bookshop.swift"), ("greeting-service.yaml", "GreetingService.swift"), ("kinds.yaml", "Kinds.swift")])
    func committedClientIsCurrent(document: String, client: String) throws {
        let generated = try ClientGenerator().generate(try Self.document(document), fileName: document)
        let committed = try String(contentsOf: Self.folder.appendingPathComponent("Generated/\(client)"), encoding: .utf8)
        #expect(generated.source == committed, "regenerate with: swift run courier-openapi Tests/CourierTests/OpenAPI/Documents/\(document) --output Tests/CourierTests/OpenAPI/Generated/\(client)")
    }

    @Test("swift-openapi-generator's tutorial document: its generated client greets, with and without a name", arguments: TransportKind.allCases)
    func greetingService(transport: TransportKind) async throws {
        let service = GreetingServiceAPI(provider: try await provider(transport, "/greeting/api"))
        #expect(try await service.getGreeting(name: "Courier").message == "Hello, Courier!")
        #expect(try await service.getGreeting(name: nil).message == "Hello, Stranger!")
        #expect(GreetingServiceServer.main == "https://example.com/api")
    }

    @Test("A oneOf's cases are named by the words that set its members apart")
    func oneOfCaseNames() {
        #expect(SourceWriter.shortCaseNames(["ChatCompletionRequestUserMessage", "ChatCompletionRequestToolMessage"]) == ["user", "tool"])
        #expect(SourceWriter.shortCaseNames(["ReaderReview", "CriticReview"]) == ["reader", "critic"])
        #expect(SourceWriter.shortCaseNames(["String", "[ChatCompletionRequestUserMessageContentPart]"]) == ["string", "parts"])
        // Nothing shared, or a member that is not a named type: the names of the types.
        #expect(SourceWriter.shortCaseNames(["Cat", "Dog"]) == ["cat", "dog"])
        #expect(SourceWriter.shortCaseNames(["String", "[String]", "[[Int]]"]) == ["string", "stringList", "intListList"])
        // A member whose name is all the others share keeps every case whole.
        #expect(SourceWriter.shortCaseNames(["Pet", "PetCat"]) == ["pet", "petCat"])
        #expect(SourceWriter.shortCaseNames(["PetOneCat", "PetTwoCat", "PetOne"]) == ["oneCat", "twoCat", "one"])
    }

    @Test("A stream beside JSON is a function of its own; Accept and Content-Type as documented; names that would hide Swift's types")
    func streamsMediaTypesAndReservedNames() throws {
        let text = """
            openapi: 3.1.0
            info: { title: Data API, version: "1" }
            paths:
              /chat:
                post:
                  operationId: chat
                  requestBody: { content: { "image/*": { schema: { type: string, format: binary } } } }
                  responses:
                    '200':
                      description: an answer, whole or streamed
                      content:
                        application/json: { schema: { $ref: '#/components/schemas/Answer' } }
                        text/event-stream: { schema: { $ref: '#/components/schemas/Delta' } }
                    '400': { description: refused, content: { text/plain: { schema: { type: string } } } }
              /chat/stream:
                get:
                  operationId: chatStream
                  responses: { '204': { description: done, content: { application/json: { schema: { type: object } } } } }
              /upload:
                put:
                  operationId: upload
                  requestBody: { content: { application/jsonl: { schema: { type: string } } } }
                  responses: { '200': { description: stored, content: { application/octet-stream: { schema: { type: string, format: binary } } } } }
            components:
              schemas:
                Error: { type: object, properties: { message: { type: string } } }
                Answer: { type: object, properties: { text: { type: string } } }
                Delta: { type: object, properties: { text: { type: string } } }
            """
        let generated = try generate(text)
        let source = generated.source
        // "Data API" would hide `Data`; a model named `Error` would hide `Swift.Error`.
        #expect(source.contains("protocol DataEndpoints {") && source.contains("struct ErrorModel:"))
        // The JSON function asks for the bodies it reads; the stream's function, named so as not
        // to take the next operation's name, leaves `Accept` to its decoder.
        #expect(source.contains("@Headers([\"Accept\": \"application/json, text/plain\"])\n    @POST(\"/chat\")\n    func chat(body: Body<Data>) async throws -> ChatResponse"))
        #expect(source.contains("@POST(\"/chat\")\n    func chatStream_(body: Body<Data>) async throws -> ServerSentEvents<Delta>"))
        #expect(source.contains("func chatStream() async throws\n"), "a 204 has no body to return")
        // A body of a range of types goes as bytes without a Content-Type; one of a concrete type under it.
        #expect(source.contains("@Headers([\"Accept\": \"application/octet-stream\", \"Content-Type\": \"application/jsonl\"])\n    @PUT(\"/upload\")"))
        #expect(generated.warnings.contains { $0.pointer == "#/paths/~1chat~1stream/get/responses/204/content" })
    }

    @Test("What is generated otherwise than written is a warning naming its JSON pointer")
    func warningsNamePointers() throws {
        let generated = try ClientGenerator().generate(try Self.document("bookshop.yaml"), fileName: "bookshop.yaml")
        // The cookie parameter `session` is a parameter now (`CookieValue`), no warning.
        #expect(generated.warnings.map(\.pointer) == ["#/components/schemas/Unsupported"])
        #expect(generated.warnings.contains { $0.pointer == "#/components/schemas/Unsupported" && $0.message.contains("`not`") })
        #expect(generated.source.contains("session: CookieValue<String?>"))
        // A schema that allows any value is no warning: it is read as JSONValue.
        #expect(!generated.warnings.contains { $0.pointer.hasSuffix("/detail") })
        #expect(generated.source.contains("var detail: JSONValue?"))
    }

    @Test("One protocol per tag by default, or one for every operation by configuration; security kept in both")
    func protocolsPerTagOrOne() throws {
        let text = try Self.document("bookshop.yaml")
        let perTag = try ClientGenerator().generate(text, fileName: "bookshop.yaml").source
        let one = try ClientGenerator(configuration: .init(protocols: .one)).generate(text, fileName: "bookshop.yaml").source
        let protocols = { (source: String) in source.split(separator: "\n").filter { $0.hasPrefix("protocol ") }.map(String.init) }
        #expect(protocols(perTag) == ["protocol Bookshop {", "protocol Reviews {", "protocol StockEndpoints {"])
        #expect(protocols(one) == ["protocol Bookshop {"])
        #expect(one.contains("func listReviews(bookId: Int, authorization: Header<AuthorizationHeader>) async throws -> [Review]"))
        #expect(perTag.contains("/// What readers and critics say.\n@API"))
    }

    @Test("A path placeholder the document declares no parameter for is a String parameter, with a warning")
    func undeclaredPlaceholder() throws {
        let text = """
            openapi: 3.1.0
            info: { title: Shelves, version: "1" }
            paths:
              /shelves/{shelf_id}/books/{book_id}:
                get:
                  operationId: book
                  parameters:
                    - { name: book_id, in: path, required: true, schema: { type: integer } }
                  responses:
                    '204': { description: Found. }
            """
        let generated = try generate(text)
        #expect(generated.source.contains("@GET(\"/shelves/{shelfId}/books/{bookId}\")\n    func book(bookId: Int, shelfId: String) async throws\n"))
        #expect(generated.warnings.map(\.pointer) == ["#/paths/~1shelves~1{shelf_id}~1books~1{book_id}/get/parameters"])
        #expect(generated.warnings.first?.message == "the path's `{shelf_id}` has no parameter: `shelfId` is a String")
    }

    @Test("A JSON document is read as JSON: escapes of characters outside the BMP (surrogate pairs) are read")
    func jsonDocument() throws {
        let text = #"""
            {"openapi": "3.1.0", "info": {"title": "Reactions", "version": "1"},
             "paths": {"/reactions": {"get": {"operationId": "listReactions", "description": "Lists \ud83d\udc4d reactions.",
               "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "string", "enum": ["\ud83d\udc4d", "plain"]}}}}}}}}}
            """#
        let generated = try generate(text)
        #expect(generated.source.contains("Lists \u{1F44D} reactions."), "\(generated.source)")
        #expect(generated.source.contains("\u{1F44D}"))
    }

    @Test("A security requirement naming a scheme the document does not declare is left out with a warning naming its pointer; the rest generates")
    func undeclaredSecurityScheme() throws {
        let text = """
            openapi: 3.0.3
            info: { title: Identities, version: "1" }
            components:
              securitySchemes:
                bearer: { type: http, scheme: bearer }
            paths:
              /identities:
                get:
                  operationId: listIdentities
                  security: [{ oryAccessToken: [] }, { bearer: [] }]
                  responses:
                    '204': { description: done }
            """
        let generated = try generate(text)
        #expect(generated.source.contains("func listIdentities("), "\(generated.source)")
        #expect(generated.warnings.contains { $0.pointer == "#/paths/~1identities/get/security/0/oryAccessToken" && $0.message.contains("not declared") }, "\(generated.warnings)")
    }

    @Test("String enums are parameters everywhere a parameter is: path, query and header (Generated/Kinds.swift)", arguments: TransportKind.allCases)
    func stringEnumParameters(transport: TransportKind) async throws {
        let kinds = KindsAPI(provider: try await transport.provider())
        let seen = try await kinds.listThings(kind: .film, shelf: .top, order: .desc, xShelfKind: .unknown("poster"), verbose: "yes", sessionId: "s-1; admin=1", theme: .book)
        #expect(seen.contains(#""target":"\/echo\/things\/film\/top?order=desc""#) || seen.contains(#""target":"/echo/things/film/top?order=desc""#), "\(seen)")
        #expect(seen.lowercased().contains(#"["x-shelf-kind","poster"]"#), "\(seen)")
        // A header named as its Swift name is one name in backticks, sent as the document spells it.
        #expect(seen.contains(#"["verbose","yes"]"#), "\(seen)")
        // Cookie parameters under the document's names, in one Cookie header.
        // A value's `;` and space are percent-encoded: they cannot start another cookie.
        #expect(seen.contains(#"["cookie","session_id=s-1%3B%20admin=1; theme=book"]"#), "\(seen)")
        let warnings = try generate(try Self.document("kinds.yaml")).warnings
        #expect(warnings.contains { $0.pointer == "#/paths/~1echo~1things~1{kind}~1{shelf}/get/parameters/7" && $0.message.contains("`shelf` is left out") }, "\(warnings)")
        // Each media type of a body, sent as itself.
        let json = try await kinds.addNote(body: .init(text: "a b"))
        #expect(json.contains(#"application\/json"#) || json.contains("application/json"), "\(json)")
        let form = try await kinds.addNoteForm(body: .init(text: "a b"))
        // The echo gives the body in base64: "text=a+b".
        #expect(form.contains(#"application\/x-www-form-urlencoded"#) && form.contains(Data("text=a+b".utf8).base64EncodedString()), "\(form)")
        let multipart = try await kinds.addNoteMultipart(text: Part(text: "a b"))
        #expect(multipart.contains("multipart\\/form-data") || multipart.contains("multipart/form-data"), "\(multipart)")
        // A path parameter whose schema names no type is text.
        let label = try await kinds.showLabel(label: "new arrivals")
        #expect(label.contains(#""path":"\/echo\/labels\/new%20arrivals""#) || label.contains(#""path":"/echo/labels/new%20arrivals""#), "\(label)")
    }

    @Test("A 4XX range beside a status of its own in that range keeps its body: the range less that status (Discord's 429 and 4XX)", arguments: TransportKind.allCases)
    func rangeBesideItsOwnStatus(transport: TransportKind) async throws {
        let kinds = KindsAPI(provider: try await transport.provider())
        let notFound = try await kinds.statusOf(code: 404)
        #expect(notFound.status == 404 && notFound.clientError?.code == 404 && notFound.tooManyRequests == nil && notFound.other == nil)
        let limited = try await kinds.statusOf(code: 429)
        #expect(limited.tooManyRequests?.code == 429 && limited.clientError == nil && limited.other == nil)
        let unavailable = try await kinds.statusOf(code: 503)
        #expect(unavailable.other?.code == 503 && unavailable.clientError == nil)
        let ok = try await kinds.statusOf(code: 200)
        #expect(ok.statusReply?.code == 200 && ok.clientError == nil)
    }

    @Test("A type nested for an inline schema does not hide a component the same struct refers to (Generated/Kinds.swift)")
    func nestedTypesKeepComponentsVisible() throws {
        let json = #"{"project":{"name":"inline"},"main_project":{"id":"p-1"}}"#
        let invoice = try JSONDecoder().decode(Invoice.self, from: Data(json.utf8))
        // `mainProject` is the component `Project`, with its `id`, not the nested inline type.
        let main: Project? = invoice.mainProject
        #expect(main?.id == "p-1")
        #expect(invoice.project?.name == "inline")
        let source = try generate(try Self.document("kinds.yaml")).source
        #expect(source.contains("var project: ProjectValue?") && source.contains("var mainProject: Project?"), "\(source)")
    }

    @Test("A oneOf of consts is an enum with a case per value, named by its title, and one for values it does not know (Generated/Kinds.swift)")
    func oneOfConstants() throws {
        let source = try generate(try Self.document("kinds.yaml")).source
        #expect(source.contains("`verbose`: Header<String?>"), "\(source)")
        #expect(MessageFlags(rawValue: 64) == .ephemeral && MessageFlags.suppressEmbeds.rawValue == 4 && MessageFlags.value8.rawValue == 8)
        let decoded = try JSONDecoder().decode([Channel].self, from: Data(#"[{"flags":4,"state":"ARCHIVED_FOR_NOW"},{"flags":2,"state":"closed"},{"state":null}]"#.utf8))
        #expect(decoded == [
            Channel(flags: .suppressEmbeds, state: .archivedForNow),
            Channel(flags: .unknown(2), state: .unknown("closed")),
            Channel(flags: nil, state: nil),
        ])
        #expect(String(decoding: try JSONEncoder().encode(Channel(flags: .ephemeral, state: .open)), as: UTF8.self).contains(#""flags":64"#))
    }

    @Test("Mutually recursive schemas hold each other by reference, so the structs have a size (Generated/Kinds.swift compiles)")
    func mutualRecursion() throws {
        let source = try generate(try Self.document("kinds.yaml")).source
        #expect(source.contains("var setupIntent: Indirect<SetupIntent>?"), "\(source)")
        #expect(source.contains("var lastSetupError: Indirect<ApiErrors>?"), "\(source)")
        let value = ApiErrors(message: "declined", setupIntent: Indirect(SetupIntent(lastSetupError: Indirect(ApiErrors(message: "inner", setupIntent: nil)))))
        let decoded = try JSONDecoder().decode(ApiErrors.self, from: try JSONEncoder().encode(value))
        #expect(decoded == value)
        #expect(decoded.setupIntent?.value.lastSetupError?.value.message == "inner")
    }

    @Test("A client written as files holds the one source's declarations: each file with its imports, the models in groups, a file per protocol")
    func filesOfBoundedSize() throws {
        let output = try generate(try Self.document("bookshop.yaml"))
        let header = "// Generated by courier-openapi from \"Bookshop\" 1.2.0. Do not edit:\n// change the document, or the configuration, and generate again.\n\nimport Courier\nimport Foundation\n\n"
        #expect(output.source.hasPrefix(header))
        #expect(output.files.allSatisfy { $0.source.hasPrefix(header) }, "\(output.files.map(\.name))")
        // The files' bodies, in order, are the source after its header.
        let bodies = output.files.map { $0.source.dropFirst(header.count).dropLast() }
        #expect(header + bodies.joined(separator: "\n\n") + "\n" == output.source)
        #expect(output.files.map(\.name) == ["BookshopServer.swift", "BookshopModels1.swift", "Bookshop.swift", "Reviews.swift", "StockEndpoints.swift"], "\(output.files.map(\.name))")
        // The bound on a models file's lines: OpenAPIDocumentsCurrencyTests, on Airflow 3.1's models.
    }

    @Test("Every media type of a request body is offered: JSON under the operation's name, each other as a function after it")
    func everyMediaTypeOffered() throws {
        let text = """
            openapi: 3.1.0
            info: { title: Messages, version: "1" }
            paths:
              /channels/{id}/messages:
                post:
                  operationId: createMessage
                  parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
                  requestBody:
                    required: true
                    content:
                      multipart/form-data:
                        schema: { type: object, properties: { payload_json: { type: string }, file: { type: string, format: binary } } }
                      application/json:
                        schema: { type: object, properties: { content: { type: string } } }
                      application/x-www-form-urlencoded:
                        schema: { type: object, properties: { content: { type: string } } }
                  responses:
                    '200': { description: Sent. }
            """
        let source = try generate(text).source
        #expect(source.contains("func createMessage(id: String, body: Body<CreateMessageBody>) async throws"), "\(source)")
        #expect(source.contains("@Multipart\n    @POST(\"/channels/{id}/messages\")\n    func createMessageMultipart(id: String, payloadJson payload_json: Part?, file: Part?) async throws"), "\(source)")
        #expect(source.contains("@URLForm\n    @POST(\"/channels/{id}/messages\")\n    func createMessageForm(id: String, body: Body<CreateMessageFormBody>) async throws"), "\(source)")
        #expect(source.contains("/// The body sent as `multipart/form-data`."), "\(source)")
    }

    @Test("OpenAPI 3.1's oneOf of null and one schema is an optional of that schema, decoded as it")
    func oneOfNull() throws {
        let text = """
            openapi: 3.1.0
            info: { title: Guilds, version: "1" }
            components:
              schemas:
                Snowflake: { type: string }
                Guild:
                  type: object
                  required: [id, application_id]
                  properties:
                    id: { $ref: '#/components/schemas/Snowflake' }
                    application_id:
                      oneOf:
                        - { type: "null" }
                        - { $ref: '#/components/schemas/Snowflake' }
            paths: {}
            """
        let source = try generate(text).source
        #expect(source.contains("var applicationId: Snowflake?"), "\(source)")
        #expect(!source.contains("jSONValue"), "\(source)")
    }

    @Test("Schemas whose names differ only in case get names of their own, and references follow each")
    func caseFoldedNames() throws {
        let text = """
            openapi: 3.0.3
            info: { title: Times, version: "1" }
            components:
              schemas:
                NullTime: { type: object, properties: { time: { type: string } } }
                nullTime: { type: object, properties: { valid: { type: boolean } } }
                Session:
                  type: object
                  properties:
                    first: { $ref: '#/components/schemas/NullTime' }
                    second: { $ref: '#/components/schemas/nullTime' }
            paths: {}
            """
        let generated = try generate(text)
        #expect(generated.source.contains("struct NullTime: Codable"), "\(generated.source)")
        #expect(generated.source.contains("struct NullTime_: Codable"))
        #expect(generated.source.contains("var first: NullTime?") && generated.source.contains("var second: NullTime_?"), "\(generated.source)")
        #expect(generated.warnings.contains { $0.pointer == "#/components/schemas/nullTime" }, "\(generated.warnings)")
    }

    @Test("Header names go out as the document spells them, `api_key` included")
    func headerNamesAsSpelled() throws {
        let text = """
            openapi: 3.0.3
            info: { title: Keys, version: "1" }
            components:
              securitySchemes:
                api_key: { type: apiKey, name: api_key, in: header }
            security: [{ api_key: [] }]
            paths:
              /pets:
                get:
                  operationId: listPets
                  parameters:
                    - { name: X_Trace_id, in: header, schema: { type: string } }
                  responses:
                    '204': { description: done }
            """
        let source = try generate(text).source
        #expect(source.contains("`X_Trace_id`: Header<String?>"), "\(source)")
        #expect(source.contains("`api_key`: Header<String>"), "\(source)")
    }

    @Test("Names: Swift's style, path parameters keep theirs, a taken name gets its location, keys sent as written")
    func namingRule() throws {
        let text = """
            openapi: 3.0.3
            info: { title: naming-test API, version: "1" }
            paths:
              /items/{id}:
                post:
                  operationId: update-item
                  parameters:
                    - { name: id, in: path, required: true, schema: { type: string } }
                    - { name: id, in: query, schema: { type: integer } }
                    - { name: id, in: header, required: true, schema: { type: string } }
                    - { name: body, in: query, schema: { type: boolean } }
                    - { name: page-size, in: query, required: true, schema: { type: integer, format: int32 } }
                  requestBody:
                    content:
                      application/json:
                        schema: { type: object, properties: { note: { type: string } } }
                  responses:
                    '204': { description: done }
            """
        let generated = try generate(text)
        #expect(generated.source.contains("protocol NamingTest {"))
        #expect(generated.source.contains(
            #"@POST("/items/{id}")"# + "\n    func updateItem(id: String, body: Query<Bool?>, pageSize `page-size`: Query<Int32>, requestBody: Body<UpdateItemBody?>) async throws"
        ), "\(generated.source)")
        // A key that is another parameter's name cannot be the second name (the function would
        // not compile): left out, with a warning.
        #expect(generated.warnings.map(\.pointer) == ["#/paths/~1items~1{id}/post/parameters/1", "#/paths/~1items~1{id}/post/parameters/2"], "\(generated.warnings)")
        #expect(generated.source.contains("struct UpdateItemBody: Codable, Hashable, Sendable {"))
    }

    @Test("One-member allOf is its member; oneOf without a discriminator tries each; streams and text as Courier reads them")
    func shapes() throws {
        let text = """
            openapi: 3.1.0
            info: { title: Shapes, version: "1" }
            paths:
              /events:
                get:
                  operationId: events
                  responses:
                    '200':
                      description: a stream
                      content:
                        text/event-stream:
                          schema: { $ref: '#/components/schemas/Tick' }
              /lines:
                get:
                  operationId: lines
                  responses:
                    '200': { description: lines, content: { application/jsonl: { schema: { $ref: '#/components/schemas/Tick' } } } }
              /note:
                put:
                  operationId: note
                  requestBody: { content: { text/plain: { schema: { type: string } } } }
                  responses:
                    '200': { description: text, content: { text/plain: { schema: { type: string } } } }
            components:
              schemas:
                Tick: { type: object, required: [n], properties: { n: { type: integer } } }
                Wrapped:
                  description: A tick, described again.
                  allOf: [{ $ref: '#/components/schemas/Tick' }]
                Either:
                  oneOf:
                    - { type: string }
                    - { $ref: '#/components/schemas/Tick' }
            """
        let source = try generate(text).source
        #expect(source.contains("/// A tick, described again.\ntypealias Wrapped = Tick"), "\(source)")
        #expect(source.contains("enum Either: Codable, Hashable, Sendable {\n    case string(String)\n    case tick(Tick)"))
        #expect(source.contains("self = .string(try String(from: decoder))"))
        #expect(source.contains("func events() async throws -> ServerSentEvents<Tick>"))
        #expect(source.contains("func lines() async throws -> JSONLines<Tick>"))
        // Not `required: true`: the body is optional.
        #expect(source.contains("func note(body: Body<String?>) async throws -> String"))
    }

    @Test("A document that cannot be read is an error naming the line, or where in OpenAPI's structure")
    func unreadable() throws {
        let broken = "openapi: 3.1.0\ninfo:\n  title: x\n  version: [1\npaths: {}\n"
        let syntax = #expect(throws: GeneratorError.self) { try generate(broken) }
        #expect(syntax?.line != nil && syntax?.description.hasPrefix("test.yaml:") == true, "\(String(describing: syntax))")
        let swagger = #expect(throws: GeneratorError.self) { try generate("swagger: '2.0'\ninfo: { title: x, version: '1' }\npaths: {}\n") }
        #expect(swagger?.message.contains("Swagger 2.0") == true)
        let structure = #expect(throws: GeneratorError.self) { try generate("openapi: 3.1.0\ninfo: { title: x }\npaths: {}\n") }
        #expect(structure?.message.contains("#/info") == true, "\(String(describing: structure))")
    }

    // MARK: The generated client against a server

    /// A provider on the test server under `path`, with a connect bound for a machine slowed by
    /// ThreadSanitizer and the rest of the suite (the test server is shared).
    func provider(_ transport: TransportKind, _ path: String) async throws -> Provider {
        var provider = try await transport.provider(path)
        provider.retryPolicy = .disabled
        provider.timeouts.connect = .seconds(30)
        return provider
    }

    func bookshop(_ transport: TransportKind) async throws -> any Bookshop {
        BookshopAPI(provider: try await provider(transport, "/bookshop/v1"))
    }

    @Test("Query, header and path parameters arrive where the document puts them; enums read unknown values", arguments: TransportKind.allCases)
    func listAndGet(transport: TransportKind) async throws {
        let shop = try await bookshop(transport)
        let books = try await shop.listBooks(limit: 3, genre: .poetry, xRequestID: "r-1")
        #expect(books.count == 2)
        #expect(books[0].title == "request r-1" && books[0].genre == .poetry && books[0].pageCount == 3)
        #expect(books[0].addedAt == Date(timeIntervalSince1970: 1_795_687_200))
        #expect(books[1].genre == .unknown("graphic-novel") && books[1].pageCount == nil)
        #expect(books[1].dimensions?.width == 1.5 && books[1].addedAt.timeIntervalSince1970 == 1_795_687_200.25)

        let found = try await shop.getBook(bookId: 1, bookIdQuery: "q", session: nil)
        #expect(found.status == 200 && found.book?.title == "query q, cookie none" && found.error == nil)
        // The document's cookie parameter, sent in the Cookie header under its name.
        let withSession = try await shop.getBook(bookId: 1, bookIdQuery: "q", session: "abc")
        #expect(withSession.book?.title == "query q, cookie session=abc", "\(String(describing: withSession.book))")
        // A documented failure is an answer: its body typed, nothing thrown.
        let missing = try await shop.getBook(bookId: 2, bookIdQuery: nil, session: nil)
        #expect(missing.status == 404 && missing.book == nil)
        #expect(missing.error?.title == "No book 2")
    }

    @Test("Several documented bodies: one property per status, a body per error type, the rest by default", arguments: TransportKind.allCases)
    func responsePerStatus(transport: TransportKind) async throws {
        let shop = try await bookshop(transport)
        let book = NewBook(title: "Dune", genre: .fiction)
        let replaced = try await shop.replaceBook(bookId: 1, body: book)
        #expect(replaced.status == 200 && replaced.ok?.title == "Dune" && replaced.ok?.id == 1 && replaced.created == nil)
        let shelved = try await shop.replaceBook(bookId: 2, body: book)
        #expect(shelved.status == 201 && shelved.created?.id == 2 && shelved.ok == nil)
        let held = try await shop.replaceBook(bookId: 3, body: book)
        #expect(held.status == 409 && held.conflict == ReplaceBookConflict(holder: "Ada") && held.other == nil)
        let unavailable = try await shop.replaceBook(bookId: 4, body: book)
        #expect(unavailable.status == 503 && unavailable.other?.title == "No shelf for 4" && unavailable.conflict == nil)
    }

    @Test("A JSON body goes out and its answer comes back typed; oneOf by discriminator; a map of values", arguments: TransportKind.allCases)
    func bodiesAndChoices(transport: TransportKind) async throws {
        let shop = try await bookshop(transport)
        let added = try await shop.addBook(body: NewBook(title: "Dune", genre: .fiction, pageCount: 412))
        #expect(added.id == 7 && added.title == "Dune" && added.genre == .fiction && added.pageCount == 412)

        // Operations tagged `reviews` and `Stock` are protocols of their own; `Stock` is a model's
        // name already, so its protocol is `StockEndpoints`.
        let provider = try await provider(transport, "/bookshop/v1")
        let reviews = try await ReviewsAPI(provider: provider).listReviews(bookId: 1, authorization: .bearer("t0k3n"))
        #expect(reviews == [.reader(ReaderReview(kind: "reader", stars: 5)), .critic(CriticReview(kind: "critic", text: "Sharp.", outlet: "The Times"))])
        #expect(try await StockEndpointsAPI(provider: provider).stock(partnerKey: "p-2", shopKey: "shop-1") == ["9780441013593": 3, "9780000000000": 0])
    }

    @Test("A multipart body: each property of its object is a part, sent under the document's name", arguments: TransportKind.allCases)
    func multipartParts(transport: TransportKind) async throws {
        let shop = try await bookshop(transport)
        let received = try await shop.uploadCover(bookId: 3, image: Part(data: Data("PNG".utf8), fileName: "c.png", mimeType: "image/png"), altText: Part(text: "A dune"))
        #expect(received == "multipart\nimage=PNG\nalt_text=A dune")
        let imageOnly = try await shop.uploadCover(bookId: 3, image: Part(data: Data("GIF".utf8)), altText: nil)
        #expect(imageOnly == "multipart\nimage=GIF")
    }

    @Test("Security schemes are parameters: the Authorization header, an API key in a header and in the query", arguments: TransportKind.allCases)
    func credentials(transport: TransportKind) async throws {
        let provider = try await provider(transport, "/bookshop/v1")
        let shop = ReviewsAPI(provider: provider)
        let stock = StockEndpointsAPI(provider: provider)
        #expect(try await shop.listReviews(bookId: 1, authorization: .bearer("t0k3n")).count == 2)
        let refused = await #expect(throws: CourierError.self) { try await shop.listReviews(bookId: 1, authorization: .basic(username: "ada", password: "x")) }
        #expect(refused?.response?.statusCode == 401)
        #expect(refused?.request?.headers[.authorization]?.hasPrefix("Basic ") == true)
        let wrongKey = await #expect(throws: CourierError.self) { try await stock.stock(partnerKey: "p-2", shopKey: "shop-9") }
        #expect(wrongKey?.response?.statusCode == 403)
        #expect(wrongKey?.request?.headers[HTTPField.Name("X-Shop-Key")!] == "shop-9")
        #expect(wrongKey?.request?.url?.query == "partner_key=p-2")
    }

    @Test("The generator's own executable writes the same client and reports warnings on standard error")
    func executable() async throws {
        // Built beside the test bundle: the test target depends on it.
        let candidates = [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.executableURL, Bundle.main.bundleURL].compactMap { $0 }
            .map { $0.deletingLastPathComponent().appendingPathComponent("courier-openapi") }
        let tool = try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "no courier-openapi among \(candidates)")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bookshop-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = tool
        process.arguments = [Self.folder.appendingPathComponent("Documents/bookshop.yaml").path, "--output", output.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(warnings.contains("bookshop.yaml: warning: #/components/schemas/Unsupported"))
        let committed = try String(contentsOf: Self.folder.appendingPathComponent("Generated/Bookshop.swift"), encoding: .utf8)
        #expect(try String(contentsOf: output, encoding: .utf8) == committed)
    }
}
