@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite("@Endpoint misuse: a property of a type its attribute cannot use", .macros(courierMacros))
struct EndpointTypeDiagnosticsTests {
    @Test("@QueryFlag on a String: a fix-it makes it a Bool")
    func queryFlagNotBool() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryFlag var verbose: String
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryFlag var verbose: String
                                        ┬─────
                                        ╰─ 🛑 this property's type is not the one its attribute reads or writes; change the type (@QueryFlag needs 'Bool' or 'Bool?', not 'String')
                                           ✏️ change the type to 'Bool'
            }
            """
        } fixes: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryFlag var verbose: Bool
            }
            """
        } expansion: {
            """
            struct FindBooks {
                typealias Response = [Book]
                var verbose: Bool

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/books", operationID: "FindBooks")
                    #sourceLocation(file: "Test.swift", line: 4)
                    if self.verbose {
                        request.__addRawQuery("verbose", value: nil)
                    }
                    #sourceLocation()
                    return request
                }
            }

            extension FindBooks: Courier.Endpoint {
            }
            """
        }
    }

    @Test("@QueryFlag with a String initial value and no written type")
    func queryFlagLiteralNotBool() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryFlag var verbose = "yes"
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryFlag var verbose = "yes"
                                         ┬────
                                         ╰─ 🛑 this property's type is not the one its attribute reads or writes; change the type (@QueryFlag needs 'Bool' or 'Bool?', and this value is a 'String')
            }
            """
        }
    }

    @Test("@AbsoluteURL on an optional String: a fix-it makes it an optional URL")
    func absoluteURLNotURL() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct Mirror {
                typealias Response = Data
                @AbsoluteURL var mirror: String?
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct Mirror {
                typealias Response = Data
                @AbsoluteURL var mirror: String?
                                         ┬──────
                                         ╰─ 🛑 this property's type is not the one its attribute reads or writes; change the type (@AbsoluteURL needs 'URL' or 'URL?', not 'String?')
                                            ✏️ change the type to 'URL?'
            }
            """
        } fixes: {
            """
            @Endpoint(.get, "/books")
            struct Mirror {
                typealias Response = Data
                @AbsoluteURL var mirror: URL?
            }
            """
        } expansion: {
            """
            struct Mirror {
                typealias Response = Data
                var mirror: URL?

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/books", operationID: "Mirror")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.absoluteURL = self.mirror
                    #sourceLocation()
                    return request
                }
            }

            extension Mirror: Courier.Endpoint {
            }
            """
        }
    }

    @Test("@RequestHTTPMethod on a String")
    func methodNotHTTPMethod() {
        assertMacro {
            """
            @Endpoint
            struct Change {
                typealias Response = Book
                @RequestHTTPMethod var method: String
            }
            """
        } diagnostics: {
            """
            @Endpoint
            struct Change {
                typealias Response = Book
                @RequestHTTPMethod var method: String
                                               ┬─────
                                               ╰─ 🛑 this property's type is not the one its attribute reads or writes; change the type (@RequestHTTPMethod needs 'HTTPRequest.Method', not 'String')
                                                  ✏️ change the type to 'HTTPRequest.Method'
            }
            """
        } fixes: {
            """
            @Endpoint
            struct Change {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method
            }
            """
        } expansion: {
            """
            struct Change {
                typealias Response = Book
                var method: HTTPRequest.Method

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/", operationID: "Change")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.method = self.method
                    #sourceLocation()
                    return request
                }
            }

            extension Change: Courier.Endpoint {
            }
            """
        }
    }

    @Test("@RequestCookies on an optional, which the request cannot take: a fix-it removes it")
    func cookiesOptional() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @RequestCookies var cookies: [Cookie]?
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @RequestCookies var cookies: [Cookie]?
                                             ┬────────
                                             ╰─ 🛑 this property's type is not the one its attribute reads or writes; change the type (@RequestCookies needs '[Cookie]', not '[Cookie]?')
                                                ✏️ change the type to '[Cookie]'
            }
            """
        } fixes: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @RequestCookies var cookies: [Cookie]
            }
            """
        } expansion: {
            """
            struct FindBooks {
                typealias Response = [Book]
                var cookies: [Cookie]

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/books", operationID: "FindBooks")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.__addCookies(self.cookies)
                    #sourceLocation()
                    return request
                }
            }

            extension FindBooks: Courier.Endpoint {
            }
            """
        }
    }

    @Test("A type the spelling does not show (a typealias) is left to the compiler, which reports it at the property")
    func typeLeftToTheCompiler() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryFlag var verbose: Flag
                @QueryItem var filter: Filter
            }
            """
        } expansion: {
            """
            struct FindBooks {
                typealias Response = [Book]
                var verbose: Flag
                var filter: Filter

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/books", operationID: "FindBooks")
                    #sourceLocation(file: "Test.swift", line: 4)
                    if self.verbose {
                        request.__addRawQuery("verbose", value: nil)
                    }
                    #sourceLocation(file: "Test.swift", line: 5)
                    request.addQuery("filter", value: self.filter)
                    #sourceLocation()
                    return request
                }
            }

            extension FindBooks: Courier.Endpoint {
            }
            """
        }
    }
}
