@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite("@Endpoint misuse: where an attribute stands, and its name", .macros(courierMacros))
struct EndpointPropertyDiagnosticsTests {
    @Test("Two attributes on one property: a fix-it removes the second")
    func twoPropertyAttributes() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem @RequestHeader var author: String
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem @RequestHeader var author: String
                           ┬─────────────
                           ╰─ 🛑 a property can have only one of these attributes, which says where its value goes; remove all but one
                              ✏️ remove '@RequestHeader'
            }
            """
        } fixes: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem var author: String
            }
            """
        } expansion: {
            """
            struct FindBooks {
                typealias Response = [Book]
                var author: String

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/books", operationID: "FindBooks")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.addQuery("author", value: self.author)
                    #sourceLocation()
                    return request
                }
            }

            extension FindBooks: Courier.Endpoint {
            }
            """
        }
    }

    @Test("An attribute on a static property: a fix-it removes static")
    func attributeOnStaticProperty() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem static var author = "Herbert"
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem static var author = "Herbert"
                ┬─────────
                ╰─ 🛑 a static property belongs to no one value, so the macro does not read it; make it an instance property
                   ✏️ remove 'static'
            }
            """
        } fixes: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem var author = "Herbert"
            }
            """
        } expansion: {
            """
            struct FindBooks {
                typealias Response = [Book]
                var author = "Herbert"

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/books", operationID: "FindBooks")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.addQuery("author", value: self.author)
                    #sourceLocation()
                    return request
                }
            }

            extension FindBooks: Courier.Endpoint {
            }
            """
        }
    }

    @Test("An attribute on a declaration of two properties")
    func attributeOnSeveralProperties() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem var author, title: String
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem var author, title: String
                ┬─────────
                ├─ 🛑 peer macro can only be applied to a single variable
                ╰─ 🛑 this attribute applies to one property with a plain name; declare each property on a line of its own with its own attribute
            }
            """
        }
    }

    @Test("A name that is not a string literal")
    func nameNotStringLiteral() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem(name: authorKey) var author: String
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem(name: authorKey) var author: String
                                 ┬────────
                                 ╰─ 🛑 the name must be a string literal without interpolation, so that it can be checked at compile time
            }
            """
        }
    }

    @Test("An empty name: a fix-it removes it")
    func emptyName() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem(name: "") var author: String
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem(name: "") var author: String
                                 ┬─
                                 ╰─ 🛑 the name is empty; give one, or leave name: out to use the property's
                                    ✏️ remove 'name:'
            }
            """
        } fixes: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                @QueryItem var author: String
            }
            """
        } expansion: {
            """
            struct FindBooks {
                typealias Response = [Book]
                var author: String

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/books", operationID: "FindBooks")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.addQuery("author", value: self.author)
                    #sourceLocation()
                    return request
                }
            }

            extension FindBooks: Courier.Endpoint {
            }
            """
        }
    }

    @Test("A stored property without an attribute: a warning")
    func unannotatedProperty() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                var author: String
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct FindBooks {
                typealias Response = [Book]
                var author: String
                    ┬─────
                    ╰─ ⚠️ this stored property is not part of the request; mark it @QueryItem, @PathParameter, @RequestHeader, @RequestBody, @BodyField … or make it computed
            }
            """
        } expansion: {
            """
            struct FindBooks {
                typealias Response = [Book]
                var author: String

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    let request = Courier.RequestBuilder(method: .get, path: "/books", operationID: "FindBooks")
                    return request
                }
            }

            extension FindBooks: Courier.Endpoint {
            }
            """
        }
    }
}
