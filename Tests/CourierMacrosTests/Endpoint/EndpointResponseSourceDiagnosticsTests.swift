@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite("@EndpointResponse misuse: sources that repeat, and statuses", .macros(courierMacros))
struct EndpointResponseSourceDiagnosticsTests {
    @Test("Two @ResponseStatusCode properties: a warning")
    func twoStatusCodes() {
        assertMacro {
            """
            @EndpointResponse
            struct Deletion {
                @ResponseStatusCode var statusCode: Int
                @ResponseStatusCode var status: Int
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct Deletion {
                @ResponseStatusCode var statusCode: Int
                @ResponseStatusCode var status: Int
                ┬──────────────────
                ╰─ ⚠️ another property already reads this part of the response, so both always hold the same value; remove this one (@ResponseStatusCode)
            }
            """
        } expansion: {
            """
            struct Deletion {
                var statusCode: Int
                var status: Int
            }

            extension Deletion: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    try response.__validate()
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.statusCode = response.status.code
                    #sourceLocation(file: "Test.swift", line: 4)
                    self.status = response.status.code
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("Two @ResponseCookies properties: a warning")
    func twoCookieLists() {
        assertMacro {
            """
            @EndpointResponse
            struct Login {
                @ResponseCookies var cookies: [Cookie]
                @ResponseCookies var session: [Cookie]
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct Login {
                @ResponseCookies var cookies: [Cookie]
                @ResponseCookies var session: [Cookie]
                ┬───────────────
                ╰─ ⚠️ another property already reads this part of the response, so both always hold the same value; remove this one (@ResponseCookies)
            }
            """
        } expansion: {
            """
            struct Login {
                var cookies: [Cookie]
                var session: [Cookie]
            }

            extension Login: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    try response.__validate()
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.cookies = response.cookies
                    #sourceLocation(file: "Test.swift", line: 4)
                    self.session = response.cookies
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("A body with status: and statuses:: a fix-it removes the second")
    func severalStatusFilters() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody(status: 200, statuses: 200..<300) var book: Book?
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody(status: 200, statuses: 200..<300) var book: Book?
                                           ┬──────────────────
                                           ╰─ 🛑 a body is read for the statuses of one of status:, statuses: or strategy:, and the others would be ignored; keep one
                                              ✏️ remove 'statuses:'
            }
            """
        } fixes: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody(status: 200) var book: Book?
            }
            """
        } expansion: {
            """
            struct BookResult {
                var book: Book?
            }

            extension BookResult: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    try response.__validate()
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.book = try response.decodeBody(Book.self, decoder: decoder, when: Courier.StatusFilter.__statuses([200]))
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("Status codes outside 100–599")
    func invalidStatusCode() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody(status: 2000) var book: Book?
                @ResponseErrorBody(statuses: 400..<700) var problem: Problem?
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody(status: 2000) var book: Book?
                                      ┬───
                                      ╰─ 🛑 a status code is a number from 100 to 599 (2000)
                @ResponseErrorBody(statuses: 400..<700) var problem: Problem?
                                             ┬────────
                                             ╰─ 🛑 a status code is a number from 100 to 599 (600–699)
            }
            """
        }
    }

    @Test("A body for a failing status in a response without an error body: a fix-it makes it the error body")
    func bodyForFailingStatus() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody(status: 200) var book: Book?
                @ResponseBody(status: 404) var missing: Problem?
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody(status: 200) var book: Book?
                @ResponseBody(status: 404) var missing: Problem?
                ┬─────────────────────────
                ╰─ 🛑 a response without @ResponseErrorBody throws on a status outside 200–299 before any body is read, so this body never is; read it with @ResponseErrorBody (404)
                   ✏️ use @ResponseErrorBody
            }
            """
        } fixes: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody(status: 200) var book: Book?
                @ResponseErrorBody(status: 404) var missing: Problem?
            }
            """
        } expansion: {
            """
            struct BookResult {
                var book: Book?
                var missing: Problem?
            }

            extension BookResult: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.book = try response.decodeBody(Book.self, decoder: decoder, when: Courier.StatusFilter.__statuses([200]))
                    #sourceLocation(file: "Test.swift", line: 4)
                    self.missing = try response.decodeBody(Problem.self, decoder: decoder, when: Courier.StatusFilter.__statuses([404]))
                    #sourceLocation()
                }
            }
            """
        }
    }
}
