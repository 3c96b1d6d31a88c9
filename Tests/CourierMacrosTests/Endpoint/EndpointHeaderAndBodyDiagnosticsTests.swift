@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite("@Endpoint misuse: headers, path values, and what cannot stand together in a body or a path", .macros(courierMacros))
struct EndpointHeaderAndBodyDiagnosticsTests {
    @Test("An invalid header name in @RequestHeader(name:)")
    func invalidHeaderName() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @RequestHeader(name: "Request ID") var requestID: String
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @RequestHeader(name: "Request ID") var requestID: String
                                     ┬───────────
                                     ╰─ 🛑 this is not a valid header name; use letters, digits and !#$%&'*+-.^_`|~ only
            }
            """
        }
    }

    @Test("A @RequestHeader initial value with CR and LF")
    func invalidHeaderValue() {
        assertMacro {
            #"""
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @RequestHeader var client: String = "courier\r\nX-Injected: 1"
            }
            """#
        } diagnostics: {
            #"""
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @RequestHeader var client: String = "courier\r\nX-Injected: 1"
                                                    ┬─────────────────────────
                                                    ╰─ 🛑 a header value cannot contain CR, LF or NUL; they would split or cut the header
            }
            """#
        }
    }

    @Test("A @RequestHeaders initial dictionary with an invalid name and value")
    func invalidHeadersDictionary() {
        assertMacro {
            #"""
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @RequestHeaders var more: [String: String] = ["X Client": "courier", "X-Note": "a\nb"]
            }
            """#
        } diagnostics: {
            #"""
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @RequestHeaders var more: [String: String] = ["X Client": "courier", "X-Note": "a\nb"]
                                                                                               ┬─────
                                                              │                                ╰─ 🛑 a header value cannot contain CR, LF or NUL; they would split or cut the header
                                                              ┬─────────
                                                              ╰─ 🛑 this is not a valid header name; use letters, digits and !#$%&'*+-.^_`|~ only
            }
            """#
        }
    }

    @Test("An optional @PathParameter: a warning, and a fix-it that makes it non-optional")
    func optionalPathParameter() {
        assertMacro {
            """
            @Endpoint(.get, "/books/{id}")
            struct GetBook {
                typealias Response = Book
                @PathParameter var id: Int?
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books/{id}")
            struct GetBook {
                typealias Response = Book
                @PathParameter var id: Int?
                                       ┬───
                                       ╰─ ⚠️ a path value cannot be left out, so a nil here fails the request when it is sent; make the property non-optional
                                          ✏️ make it 'Int'
            }
            """
        } fixes: {
            """
            @Endpoint(.get, "/books/{id}")
            struct GetBook {
                typealias Response = Book
                @PathParameter var id: Int
            }
            """
        } expansion: {
            """
            struct GetBook {
                typealias Response = Book
                var id: Int

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/books/{id}", operationID: "GetBook")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.addParameter("id", value: self.id)
                    #sourceLocation()
                    return request
                }
            }

            extension GetBook: Courier.Endpoint {
            }
            """
        }
    }

    @Test("Two @PathParameter properties for one placeholder")
    func placeholderFilledTwice() {
        assertMacro {
            """
            @Endpoint(.get, "/books/{id}")
            struct GetBook {
                typealias Response = Book
                @PathParameter var id: Int
                @PathParameter(name: "id") var bookID: Int
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books/{id}")
            struct GetBook {
                typealias Response = Book
                @PathParameter var id: Int
                @PathParameter(name: "id") var bookID: Int
                ┬─────────────────────────
                ╰─ 🛑 another @PathParameter already fills this placeholder, and only one value can; remove one or give each its own placeholder with name: ('id')
            }
            """
        }
    }

    @Test("Two body fields of one name")
    func fieldNamedTwice() {
        assertMacro {
            """
            @Endpoint(.post, "/books")
            struct AddBook {
                typealias Response = Book
                @BodyField var title: String
                @Param(name: "title") var name: String
            }
            """
        } diagnostics: {
            """
            @Endpoint(.post, "/books")
            struct AddBook {
                typealias Response = Book
                @BodyField var title: String
                @Param(name: "title") var name: String
                ┬────────────────────
                ╰─ 🛑 another body field has this name, and the body holds each name once; give one of them another name with name: ('title')
            }
            """
        }
    }

    @Test("Two @RequestBody properties")
    func twoBodies() {
        assertMacro {
            """
            @Endpoint(.post, "/books")
            struct AddBook {
                typealias Response = Book
                @RequestBody var book: NewBook
                @RequestBody var cover: Data
            }
            """
        } diagnostics: {
            """
            @Endpoint(.post, "/books")
            struct AddBook {
                typealias Response = Book
                @RequestBody var book: NewBook
                @RequestBody var cover: Data
                ┬───────────
                ╰─ 🛑 an endpoint can have only one Body parameter; combine the values into one type ('book' is the @RequestBody)
            }
            """
        }
    }

    @Test("@RequestBody beside @BodyField")
    func bodyAndFields() {
        assertMacro {
            """
            @Endpoint(.post, "/books")
            struct AddBook {
                typealias Response = Book
                @RequestBody var book: NewBook
                @BodyField var note: String
            }
            """
        } diagnostics: {
            """
            @Endpoint(.post, "/books")
            struct AddBook {
                typealias Response = Book
                @RequestBody var book: NewBook
                @BodyField var note: String
                ┬─────────
                ╰─ 🛑 a Body parameter cannot be combined with fields; make the fields properties of the body, or mark them Query or Header ('book' is the @RequestBody; for Query or Header, write @QueryItem or @RequestHeader)
            }
            """
        }
    }

    @Test("@RequestBody beside a @Param that a POST makes a field")
    func bodyAndParamField() {
        assertMacro {
            """
            @Endpoint(.post, "/books")
            struct AddBook {
                typealias Response = Book
                @RequestBody var book: NewBook
                @Param var note: String
            }
            """
        } diagnostics: {
            """
            @Endpoint(.post, "/books")
            struct AddBook {
                typealias Response = Book
                @RequestBody var book: NewBook
                @Param var note: String
                ┬─────
                ╰─ 🛑 a Body parameter cannot be combined with fields; make the fields properties of the body, or mark them Query or Header ('book' is the @RequestBody; for Query or Header, write @QueryItem or @RequestHeader)
            }
            """
        }
    }

    @Test("A body on a GET: a warning")
    func bodyOnGet() {
        assertMacro {
            """
            @Endpoint(.get, "/books/search")
            struct SearchBooks {
                typealias Response = [Book]
                @RequestBody var query: BookQuery
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books/search")
            struct SearchBooks {
                typealias Response = [Book]
                @RequestBody var query: BookQuery
                ┬───────────
                ╰─ ⚠️ this method sends no body: servers may ignore one, and URLSession on Apple platforms refuses to send it (AsyncHTTPClient sends it); send the value as a @QueryItem, or name a method that takes a body, such as .post (GET)
            }
            """
        } expansion: {
            """
            struct SearchBooks {
                typealias Response = [Book]
                var query: BookQuery

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/books/search", operationID: "SearchBooks")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.__setBody(self.query)
                    #sourceLocation()
                    return request
                }
            }

            extension SearchBooks: Courier.Endpoint {
            }
            """
        }
    }
}
