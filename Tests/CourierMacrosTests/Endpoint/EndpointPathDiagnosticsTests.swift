@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite("@Endpoint misuse: the method and the path", .macros(courierMacros))
struct EndpointPathDiagnosticsTests {
    @Test("@Endpoint on an enum")
    func endpointOnNonStruct() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            enum Books {}
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            ┬────────────────────────
            ╰─ 🛑 @Endpoint can only be attached to a struct; a request type is a value
            enum Books {}
            """
        }
    }

    @Test("A path without a leading slash: a warning, and a fix-it that inserts it")
    func pathWithoutLeadingSlash() {
        assertMacro {
            """
            @Endpoint(.get, "books")
            struct ListBooks {
                typealias Response = [Book]
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "books")
                            ┬──────
                            ╰─ ⚠️ the path should start with '/'; it is appended to the provider's base URL
                               ✏️ insert '/'
            struct ListBooks {
                typealias Response = [Book]
            }
            """
        } fixes: {
            """
            @Endpoint(.get, "/books")
            struct ListBooks {
                typealias Response = [Book]
            }
            """
        } expansion: {
            """
            struct ListBooks {
                typealias Response = [Book]

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    let request = Courier.RequestBuilder(method: .get, path: "/books", operationID: "ListBooks")
                    return request
                }
            }

            extension ListBooks: Courier.Endpoint {
            }
            """
        }
    }

    @Test("A path that is not a string literal")
    func pathNotStringLiteral() {
        assertMacro {
            """
            @Endpoint(.get, booksPath)
            struct ListBooks {
                typealias Response = [Book]
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, booksPath)
                            ┬────────
                            ╰─ 🛑 the path must be a string literal without interpolation, so that it can be checked at compile time
            struct ListBooks {
                typealias Response = [Book]
            }
            """
        }
    }

    @Test("A method given by a name that is not a token")
    func invalidMethodName() {
        assertMacro {
            """
            @Endpoint("PUR GE", "/cache")
            struct Purge {
                typealias Response = EmptyResponse
            }
            """
        } diagnostics: {
            """
            @Endpoint("PUR GE", "/cache")
                      ┬───────
                      ╰─ 🛑 this is not a valid method name; use letters, digits and !#$%&'*+-.^_`|~ only, or a method such as .get
            struct Purge {
                typealias Response = EmptyResponse
            }
            """
        }
    }

    @Test("A standard method spelled in lower case: a warning, and a fix-it to the method")
    func lowercaseMethodName() {
        assertMacro {
            """
            @Endpoint("post", "/books")
            struct AddBook {
                typealias Response = Book
                @RequestBody var book: NewBook
            }
            """
        } diagnostics: {
            """
            @Endpoint("post", "/books")
                      ┬─────
                      ╰─ ⚠️ method names are case-sensitive and this one is sent as written, not as the standard upper-case method ('post' is not POST)
                         ✏️ use '.post'
            struct AddBook {
                typealias Response = Book
                @RequestBody var book: NewBook
            }
            """
        } fixes: {
            """
            @Endpoint(.post, "/books")
            struct AddBook {
                typealias Response = Book
                @RequestBody var book: NewBook
            }
            """
        } expansion: {
            """
            struct AddBook {
                typealias Response = Book
                var book: NewBook

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .post, path: "/books", operationID: "AddBook")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.__setBody(self.book)
                    #sourceLocation()
                    return request
                }
            }

            extension AddBook: Courier.Endpoint {
            }
            """
        }
    }

    @Test("A @RequestPath initial value without a leading slash: a warning and a fix-it")
    func requestPathWithoutLeadingSlash() {
        assertMacro {
            """
            @Endpoint
            struct Shelf {
                typealias Response = [Book]
                @RequestPath var path = "shelves/{id}"
                @PathParameter var id: Int
            }
            """
        } diagnostics: {
            """
            @Endpoint
            struct Shelf {
                typealias Response = [Book]
                @RequestPath var path = "shelves/{id}"
                                        ┬─────────────
                                        ╰─ ⚠️ the path should start with '/'; it is appended to the provider's base URL
                                           ✏️ insert '/'
                @PathParameter var id: Int
            }
            """
        } fixes: {
            """
            @Endpoint
            struct Shelf {
                typealias Response = [Book]
                @RequestPath var path = "/shelves/{id}"
                @PathParameter var id: Int
            }
            """
        } expansion: {
            """
            struct Shelf {
                typealias Response = [Book]
                var path = "/shelves/{id}"
                var id: Int

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/", operationID: "Shelf")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.path = self.path
                    #sourceLocation(file: "Test.swift", line: 5)
                    request.addParameter("id", value: self.id)
                    #sourceLocation()
                    return request
                }
            }

            extension Shelf: Courier.Endpoint {
            }
            """
        }
    }

    @Test("A placeholder that no property fills")
    func placeholderWithoutProperty() {
        assertMacro {
            """
            @Endpoint(.get, "/shelves/{shelf}/books")
            struct ShelfBooks {
                typealias Response = [Book]
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/shelves/{shelf}/books")
                            ┬───────────────────────
                            ╰─ 🛑 the path has a placeholder that no parameter fills; add a parameter of that name or remove the placeholder ('shelf')
            struct ShelfBooks {
                typealias Response = [Book]
            }
            """
        }
    }

    @Test("A @PathParameter without a placeholder")
    func pathParameterWithoutPlaceholder() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct GetBook {
                typealias Response = Book
                @PathParameter var id: Int
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct GetBook {
                typealias Response = Book
                @PathParameter var id: Int
                ┬─────────────
                ╰─ 🛑 this @PathParameter has no placeholder of its name in the path; add '{name}' to the path or give the placeholder's name with name: ('id' in '/books')
            }
            """
        }
    }
}
