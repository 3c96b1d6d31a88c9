@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite(.macros(courierMacros))
struct EndpointStructMacroTests {
    @Test("@Endpoint sets each annotated property directly")
    func request() {
        assertMacro {
            """
            @Endpoint(.post, "/profiles/{user_id}")
            public struct UpdateProfile {
                typealias Response = Profile
                @PathParameter(name: "user_id") var userID: String
                @QueryItem var verbose: Bool?
                @QueryFlag(name: "force") var forced: Bool
                @QueryItems var extra: [String: String]?
                @RequestHeader var requestID: String?
                @RequestHeaders var more: [String: String]?
                @RequestCookies var cookies: [Cookie]
                @RequestBody(.urlForm) var body: Changes
                @AbsoluteURL var url: URL?
                var computed: Int { 1 }
                static var shared = 0
            }
            """
        } expansion: {
            """
            public struct UpdateProfile {
                typealias Response = Profile
                var userID: String
                var verbose: Bool?
                var forced: Bool
                var extra: [String: String]?
                var requestID: String?
                var more: [String: String]?
                var cookies: [Cookie]
                var body: Changes
                var url: URL?
                var computed: Int { 1 }
                static var shared = 0

                /// The request this value describes.
                public func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .post, path: "/profiles/{user_id}", operationID: "UpdateProfile")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.addParameter("user_id", value: self.userID)
                    #sourceLocation(file: "Test.swift", line: 5)
                    request.addQuery("verbose", value: self.verbose)
                    #sourceLocation(file: "Test.swift", line: 6)
                    if self.forced {
                        request.__addRawQuery("force", value: nil)
                    }
                    #sourceLocation(file: "Test.swift", line: 7)
                    request.__addQueryItems(self.extra)
                    #sourceLocation(file: "Test.swift", line: 8)
                    request.addHeader("Request-ID", value: self.requestID)
                    #sourceLocation(file: "Test.swift", line: 9)
                    request.__setHeaders(self.more)
                    #sourceLocation(file: "Test.swift", line: 10)
                    request.__addCookies(self.cookies)
                    #sourceLocation(file: "Test.swift", line: 11)
                    request.setBody(self.body, as: .urlForm)
                    #sourceLocation(file: "Test.swift", line: 12)
                    request.absoluteURL = self.url
                    #sourceLocation()
                    return request
                }
            }

            extension UpdateProfile: Courier.Endpoint {
            }
            """
        }
    }

    @Test("Struct-level coders and headers, and method and path set per value")
    func structScope() {
        assertMacro {
            """
            @URLForm
            @Headers(["X-Client": "courier"])
            @Endpoint
            struct Contacts {
                typealias Response = Echo
                @RequestHTTPMethod var method: HTTPRequest.Method = .post
                @RequestPath var path = "/apps/{id}/contacts"
                @PathParameter var id: Int
                @BodyField var name: String
                @Param var note: String
            }
            """
        } expansion: {
            """
            struct Contacts {
                typealias Response = Echo
                var method: HTTPRequest.Method = .post
                var path = "/apps/{id}/contacts"
                var id: Int
                var name: String
                var note: String

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/", operationID: "Contacts")
                    request.setHeader("X-Client", value: "courier")
                    request.bodyEncoder = Courier.URLFormEncoder()
                    #sourceLocation(file: "Test.swift", line: 6)
                    request.method = self.method
                    #sourceLocation(file: "Test.swift", line: 7)
                    request.path = self.path
                    #sourceLocation(file: "Test.swift", line: 8)
                    request.addParameter("id", value: self.id)
                    #sourceLocation(file: "Test.swift", line: 9)
                    request.addField("name", value: self.name)
                    switch request.method {
                    case .get, .head, .delete:
                    #sourceLocation(file: "Test.swift", line: 10)
                    request.addQuery("note", value: self.note)
                    default:
                    #sourceLocation(file: "Test.swift", line: 10)
                    request.addField("note", value: self.note)
                    }
                    #sourceLocation()
                    return request
                }
            }

            extension Contacts: Courier.Endpoint {
            }
            """
        }
    }

    @Test("@EndpointResponse reads status, bodies, headers, cookies and nested responses")
    func response() {
        assertMacro {
            """
            @EndpointResponse(format: .xml)
            struct ItemResponse {
                @ResponseStatusCode var statusCode: Int
                @ResponseBody(status: 201) var created: Item?
                @ResponseBody(status: 200) var item: Item?
                @ResponseErrorBody(strategy: ServerErrors.self) var failure: ServerError?
                @ResponseHeader var contentType: String
                @ResponseHeader(name: "X-Total-Count") var total: Int?
                @ResponseCookies var cookies: [Cookie]
                @NestedResponse var page: Page
            }
            """
        } expansion: {
            """
            struct ItemResponse {
                var statusCode: Int
                var created: Item?
                var item: Item?
                var failure: ServerError?
                var contentType: String
                var total: Int?
                var cookies: [Cookie]
                var page: Page
            }

            extension ItemResponse: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    let decoder = (.xml as Courier.BodyFormat).__decoder(or: decoder)
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.statusCode = response.status.code
                    #sourceLocation(file: "Test.swift", line: 4)
                    self.created = try response.decodeBody(Item.self, decoder: decoder, when: Courier.StatusFilter.__statuses([201]))
                    #sourceLocation(file: "Test.swift", line: 5)
                    self.item = try response.decodeBody(Item.self, decoder: decoder, when: Courier.StatusFilter.__statuses([200]))
                    #sourceLocation(file: "Test.swift", line: 6)
                    self.failure = try response.decodeBody(ServerError.self, decoder: decoder, when: Courier.StatusFilter.__strategy(ServerErrors.self))
                    #sourceLocation(file: "Test.swift", line: 7)
                    self.contentType = try response.__header("Content-Type", as: String.self)
                    #sourceLocation(file: "Test.swift", line: 8)
                    self.total = try response.__optionalHeader("X-Total-Count", as: Int.self)
                    #sourceLocation(file: "Test.swift", line: 9)
                    self.cookies = response.cookies
                    #sourceLocation(file: "Test.swift", line: 10)
                    self.page = try Page(from: response, decoder: decoder)
                    #sourceLocation()
                }

                static var acceptedContentType: String? {
                    (.xml as Courier.BodyFormat).__accept
                }
            }
            """
        }
    }

    @Test("Misuse: a placeholder without a property, a path parameter without a placeholder, an unannotated property")
    func diagnostics() {
        assertMacro {
            """
            @Endpoint(.get, "/users/{id}/posts/{post}")
            struct Broken {
                @PathParameter var id: Int
                @PathParameter var slug: String
                var forgotten: String
            }

            @EndpointResponse
            struct Incomplete {
                var unread: String
            }

            @Endpoint(.get, "/x")
            enum NotAStruct {}
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/users/{id}/posts/{post}")
                            ┬─────────────────────────
                            ╰─ 🛑 the path has a placeholder that no parameter fills; add a parameter of that name or remove the placeholder ('post')
            struct Broken {
                @PathParameter var id: Int
                @PathParameter var slug: String
                ┬─────────────
                ╰─ 🛑 this @PathParameter has no placeholder of its name in the path; add '{name}' to the path or give the placeholder's name with name: ('slug' in '/users/{id}/posts/{post}')
                var forgotten: String
                    ┬────────
                    ╰─ ⚠️ this stored property is not part of the request; mark it @QueryItem, @PathParameter, @RequestHeader, @RequestBody, @BodyField … or make it computed
            }

            @EndpointResponse
            struct Incomplete {
                var unread: String
                    ┬─────
                    ╰─ 🛑 this stored property has no source in the response; mark it @ResponseBody, @ResponseErrorBody, @ResponseHeader, @ResponseStatusCode, @ResponseCookies or @NestedResponse
            }

            @Endpoint(.get, "/x")
            ┬────────────────────
            ╰─ 🛑 @Endpoint can only be attached to a struct; a request type is a value
            enum NotAStruct {}
            """
        }
    }
}
