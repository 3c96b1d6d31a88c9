@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite("@EndpointResponse misuse: bodies that conflict", .macros(courierMacros))
struct EndpointResponseBodyDiagnosticsTests {
    @Test("Two error bodies for the same statuses")
    func twoErrorBodiesSameStatuses() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book?
                @ResponseErrorBody var problem: Problem?
                @ResponseErrorBody var error: APIError?
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book?
                @ResponseErrorBody var problem: Problem?
                @ResponseErrorBody var error: APIError?
                ┬─────────────────
                ╰─ ⚠️ another body is read for exactly these statuses, so one response fills both; remove one, or give each its own statuses ('problem' is read for 400–599)
            }
            """
        } expansion: {
            """
            struct BookResult {
                var book: Book?
                var problem: Problem?
                var error: APIError?
            }

            extension BookResult: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.book = try response.decodeBody(Book.self, decoder: decoder, when: Courier.StatusFilter.success)
                    #sourceLocation(file: "Test.swift", line: 4)
                    self.problem = try response.decodeBody(Problem.self, decoder: decoder, when: Courier.StatusFilter.failure)
                    #sourceLocation(file: "Test.swift", line: 5)
                    self.error = try response.decodeBody(APIError.self, decoder: decoder, when: Courier.StatusFilter.failure)
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("Two bodies for the same statuses, written two ways")
    func twoBodiesSameStatuses() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody(statuses: [200, 201]) var book: Book?
                @ResponseBody(statuses: 200...201) var summary: Summary?
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody(statuses: [200, 201]) var book: Book?
                @ResponseBody(statuses: 200...201) var summary: Summary?
                ┬─────────────────────────────────
                ╰─ ⚠️ another body is read for exactly these statuses, so one response fills both; remove one, or give each its own statuses ('book' is read for 200, 201)
            }
            """
        } expansion: {
            """
            struct BookResult {
                var book: Book?
                var summary: Summary?
            }

            extension BookResult: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    try response.__validate()
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.book = try response.decodeBody(Book.self, decoder: decoder, when: Courier.StatusFilter.__statuses([200, 201]))
                    #sourceLocation(file: "Test.swift", line: 4)
                    self.summary = try response.decodeBody(Summary.self, decoder: decoder, when: Courier.StatusFilter.__statuses(200 ... 201))
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("A body for statuses another body already takes: a warning")
    func overlappingStatuses() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book?
                @ResponseBody(status: 201) var created: Book?
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book?
                @ResponseBody(status: 201) var created: Book?
                ┬─────────────────────────
                ╰─ ⚠️ another body is also read for some of these statuses, so one response fills both; give the bodies statuses that do not overlap (201, also read into 'book')
            }
            """
        } expansion: {
            """
            struct BookResult {
                var book: Book?
                var created: Book?
            }

            extension BookResult: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    try response.__validate()
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.book = try response.decodeBody(Book.self, decoder: decoder, when: Courier.StatusFilter.success)
                    #sourceLocation(file: "Test.swift", line: 4)
                    self.created = try response.decodeBody(Book.self, decoder: decoder, when: Courier.StatusFilter.__statuses([201]))
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("A non-optional body beside an error body: a fix-it makes it optional")
    func requiredBodyBesideOthers() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book
                @ResponseErrorBody var problem: Problem?
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book
                                        ┬───
                                        ╰─ 🛑 a non-optional body fails the whole response on every status it is not read for, so the response's other statuses never reach you; make it optional
                                           ✏️ make it optional
                @ResponseErrorBody var problem: Problem?
            }
            """
        } fixes: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book?
                @ResponseErrorBody var problem: Problem?
            }
            """
        } expansion: {
            """
            struct BookResult {
                var book: Book?
                var problem: Problem?
            }

            extension BookResult: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.book = try response.decodeBody(Book.self, decoder: decoder, when: Courier.StatusFilter.success)
                    #sourceLocation(file: "Test.swift", line: 4)
                    self.problem = try response.decodeBody(Problem.self, decoder: decoder, when: Courier.StatusFilter.failure)
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("A non-optional error body, which fails every successful response: a fix-it makes it optional")
    func requiredErrorBody() {
        assertMacro {
            """
            @EndpointResponse
            struct Refusal {
                @ResponseErrorBody var problem: Problem
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct Refusal {
                @ResponseErrorBody var problem: Problem
                                                ┬──────
                                                ╰─ 🛑 a non-optional body fails the whole response on every status it is not read for, so the response's other statuses never reach you; make it optional
                                                   ✏️ make it optional
            }
            """
        } fixes: {
            """
            @EndpointResponse
            struct Refusal {
                @ResponseErrorBody var problem: Problem?
            }
            """
        } expansion: {
            """
            struct Refusal {
                var problem: Problem?
            }

            extension Refusal: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.problem = try response.decodeBody(Problem.self, decoder: decoder, when: Courier.StatusFilter.failure)
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("One non-optional body with the default statuses says nothing")
    func requiredBodyAlone() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book
            }
            """
        } expansion: {
            """
            struct BookResult {
                var book: Book
            }

            extension BookResult: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    try response.__validate()
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.book = try response.__requireBody(Book.self, decoder: decoder, when: Courier.StatusFilter.success)
                    #sourceLocation()
                }
            }
            """
        }
    }
}
