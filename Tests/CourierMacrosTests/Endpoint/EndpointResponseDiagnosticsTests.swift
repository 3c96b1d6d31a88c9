@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite("@EndpointResponse misuse: the struct and its properties", .macros(courierMacros))
struct EndpointResponseDiagnosticsTests {
    @Test("@EndpointResponse on an enum")
    func responseOnNonStruct() {
        assertMacro {
            """
            @EndpointResponse
            enum Outcome {}
            """
        } diagnostics: {
            """
            @EndpointResponse
            ┬────────────────
            ╰─ 🛑 @EndpointResponse can only be attached to a struct
            enum Outcome {}
            """
        }
    }

    @Test("A stored property with no source in the response")
    func unannotatedProperty() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book?
                var note: String
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book?
                var note: String
                    ┬───
                    ╰─ 🛑 this stored property has no source in the response; mark it @ResponseBody, @ResponseErrorBody, @ResponseHeader, @ResponseStatusCode, @ResponseCookies or @NestedResponse
            }
            """
        }
    }

    @Test("A property whose type is not written")
    func untypedProperty() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book = Book.placeholder
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book = Book.placeholder
                                  ┬───
                                  ╰─ 🛑 the macro reads a property as its written type; write the type, such as ': Item?'
            }
            """
        }
    }

    @Test("An attribute on a computed property")
    func computedProperty() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book? { nil }
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book? { nil }
                                  ┬───
                                  ╰─ 🛑 a computed property stores nothing, so nothing can be read into it; make it a stored 'var' or remove the attribute
            }
            """
        }
    }

    @Test("A let with an initial value: a fix-it makes it var")
    func initializedLet() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseStatusCode let status: Int = 200
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseStatusCode let status: Int = 200
                                    ┬──
                                    ╰─ 🛑 a 'let' with an initial value cannot be set from the response; make it 'var', or remove the initial value
                                       ✏️ make it 'var'
            }
            """
        } fixes: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseStatusCode var status: Int = 200
            }
            """
        } expansion: {
            """
            struct BookResult {
                var status: Int = 200
            }

            extension BookResult: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    try response.__validate()
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.status = response.status.code
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("Two attributes on one property: a fix-it removes the second")
    func twoAttributes() {
        assertMacro {
            """
            @EndpointResponse
            struct Page {
                @ResponseHeader @ResponseBody var total: Int
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct Page {
                @ResponseHeader @ResponseBody var total: Int
                                ┬────────────
                                ╰─ 🛑 a property can have only one of these attributes, which says where its value goes; remove all but one
                                   ✏️ remove '@ResponseBody'
            }
            """
        } fixes: {
            """
            @EndpointResponse
            struct Page {
                @ResponseHeader var total: Int
            }
            """
        } expansion: {
            """
            struct Page {
                var total: Int
            }

            extension Page: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    try response.__validate()
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.total = try response.__header("Total", as: Int.self)
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("@ResponseStatusCode on a String: a fix-it makes it an Int")
    func statusCodeNotInt() {
        assertMacro {
            """
            @EndpointResponse
            struct Deletion {
                @ResponseStatusCode var status: String
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct Deletion {
                @ResponseStatusCode var status: String
                                                ┬─────
                                                ╰─ 🛑 this property's type is not the one its attribute reads or writes; change the type (@ResponseStatusCode needs 'Int' or 'Int?', not 'String')
                                                   ✏️ change the type to 'Int'
            }
            """
        } fixes: {
            """
            @EndpointResponse
            struct Deletion {
                @ResponseStatusCode var status: Int
            }
            """
        } expansion: {
            """
            struct Deletion {
                var status: Int
            }

            extension Deletion: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    try response.__validate()
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.status = response.status.code
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("An invalid header name in @ResponseHeader(name:)")
    func invalidHeaderName() {
        assertMacro {
            """
            @EndpointResponse
            struct Page {
                @ResponseHeader(name: "Total Count") var total: Int
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct Page {
                @ResponseHeader(name: "Total Count") var total: Int
                                      ┬────────────
                                      ╰─ 🛑 this is not a valid header name; use letters, digits and !#$%&'*+-.^_`|~ only
            }
            """
        }
    }

    @Test("A header type the spelling does not show is read at the property, so the compiler reports a type that is not a HeaderValue there")
    func headerTypeLeftToTheCompiler() {
        assertMacro {
            """
            @EndpointResponse
            struct Page {
                @ResponseHeader(name: "X-Total-Count") var total: Count
            }
            """
        } expansion: {
            """
            struct Page {
                var total: Count
            }

            extension Page: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    try response.__validate()
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.total = try response.__header("X-Total-Count", as: Count.self)
                    #sourceLocation()
                }
            }
            """
        }
    }
}
