@testable import CourierMacroExpansions
import MacroTesting
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import Testing

@Suite("Request and response structs: valid code the checks once took for misuse, and fix-its that must compile", .macros(courierMacros))
struct EndpointValidCodeDiagnosticsTests {
    @Test("An optional @AbsoluteURL beside @RequestPath: nil falls back on the path, so no error")
    func optionalAbsoluteURLBesideRequestPath() {
        assertMacro {
            """
            @Endpoint
            struct Fetch {
                typealias Response = Data
                @RequestPath var path = "/books"
                @AbsoluteURL var url: URL?
            }
            """
        } expansion: {
            """
            struct Fetch {
                typealias Response = Data
                var path = "/books"
                var url: URL?

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/", operationID: "Fetch")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.path = self.path
                    #sourceLocation(file: "Test.swift", line: 5)
                    request.absoluteURL = self.url
                    #sourceLocation()
                    return request
                }
            }

            extension Fetch: Courier.Endpoint {
            }
            """
        }
    }

    @Test("A stored property with only observers stores a value: no 'computed' error")
    func observedResponseProperty() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book? {
                    didSet { print("read") }
                }
            }
            """
        } expansion: {
            """
            struct BookResult {
                var book: Book? {
                    didSet { print("read") }
                }
            }

            extension BookResult: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    try response.__validate()
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.book = try response.decodeBody(Book.self, decoder: decoder, when: Courier.StatusFilter.success)
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("A computed response property with get and set is still computed")
    func computedWithAccessors() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book? {
                    get { nil }
                    set {}
                }
            }
            """
        } diagnostics: {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Book? {
                                  ┬───
                                  ╰─ 🛑 a computed property stores nothing, so nothing can be read into it; make it a stored 'var' or remove the attribute
                    get { nil }
                    set {}
                }
            }
            """
        }
    }

    @Test("Swift.Optional is optional: no 'required body' error, and @QueryFlag reads it as an optional")
    func qualifiedOptional() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseBody var book: Swift.Optional<Book>
                @ResponseErrorBody var problem: Swift.Optional<Problem>
            }
            """
        } expansion: {
            """
            struct BookResult {
                var book: Swift.Optional<Book>
                var problem: Swift.Optional<Problem>
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
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct ListBooks {
                typealias Response = [Book]
                @QueryFlag var force: Swift.Optional<Bool>
            }
            """
        } expansion: {
            """
            struct ListBooks {
                typealias Response = [Book]
                var force: Swift.Optional<Bool>

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/books", operationID: "ListBooks")
                    #sourceLocation(file: "Test.swift", line: 4)
                    if self.force == true {
                        request.__addRawQuery("force", value: nil)
                    }
                    #sourceLocation()
                    return request
                }
            }

            extension ListBooks: Courier.Endpoint {
            }
            """
        }
    }

    @Test("A path with a backslash or a quote, which #sourceLocation takes neither raw nor escaped: no directive")
    func sourceLocationWithBackslashOrQuote() throws {
        #expect(try directive(inFile: #"C:\src\App.swift"#) == nil)
        #expect(try directive(inFile: #"/src/"quoted".swift"#) == nil)
        #expect(try directive(inFile: "/src/App.swift") == #"#sourceLocation(file: "/src/App.swift", line: 1)"#)
    }

    @Test("A struct another macro wrote gets no #sourceLocation")
    func sourceLocationInMacroBuffer() throws {
        #expect(try directive(inFile: "@__swiftmacro_3App1S8EndpointfMm_.swift") == nil)
    }

    /// The directive for the first declaration of a file at `path`.
    private func directive(inFile path: String) throws -> String? {
        let source = Parser.parse(source: "struct S { var id: Int }")
        let context = BasicMacroExpansionContext(sourceFiles: [source: .init(moduleName: "App", fullFilePath: path)])
        return SourceLocationDirective.at(Syntax(try #require(source.statements.first)), in: context)
    }

    @Test("A literal range of statuses far wider than any: unknown, and read at run time")
    func hugeStatusRange() {
        assertMacro {
            """
            @EndpointResponse
            struct BookResult {
                @ResponseErrorBody(statuses: 400...9_999_999_999) var problem: Problem?
            }
            """
        } expansion: {
            """
            struct BookResult {
                var problem: Problem?
            }

            extension BookResult: Courier.ResponseDecodable {
                /// Reads this response's properties from `response`.
                init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {
                    #sourceLocation(file: "Test.swift", line: 3)
                    self.problem = try response.decodeBody(Problem.self, decoder: decoder, when: Courier.StatusFilter.__statuses(400 ... 9_999_999_999))
                    #sourceLocation()
                }
            }
            """
        }
    }

    @Test("Header values in a raw string or with \\u{…} are read as the compiler reads them")
    func rawAndUnicodeHeaderValues() {
        assertMacro {
            #"""
            @Endpoint(.get, "/files")
            @Headers(["X-Path": #"C:\new"#, "X-Dash": "a\u{2D}b"])
            struct ListFiles {
                typealias Response = Data
            }
            """#
        } expansion: {
            #"""
            struct ListFiles {
                typealias Response = Data

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/files", operationID: "ListFiles")
                    request.setHeader("X-Path", value: "C:\\new")
                    request.setHeader("X-Dash", value: "a-b")
                    return request
                }
            }

            extension ListFiles: Courier.Endpoint {
            }
            """#
        }
    }

    @Test("A path in @Endpoint after a method by name, beside a non-optional @AbsoluteURL: no fix-it, which would leave @Endpoint(\"PURGE\")")
    func pathReplacedAfterMethodName() {
        assertMacro {
            """
            @Endpoint("PURGE", "/cache")
            struct Purge {
                typealias Response = Data
                @AbsoluteURL var url: URL
            }
            """
        } diagnostics: {
            """
            @Endpoint("PURGE", "/cache")
                               ┬───────
                               ╰─ ⚠️ a non-optional @AbsoluteURL replaces this path on every request, so it is never sent; remove the path, or make the URL optional to fall back on it
            struct Purge {
                typealias Response = Data
                @AbsoluteURL var url: URL
            }
            """
        } expansion: {
            """
            struct Purge {
                typealias Response = Data
                var url: URL

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder.__make(method: "PURGE", path: "/cache", operationID: "Purge")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.absoluteURL = self.url
                    #sourceLocation()
                    return request
                }
            }

            extension Purge: Courier.Endpoint {
            }
            """
        }
    }

    @Test("A method in @Endpoint beside a computed @RequestHTTPMethod: no fix-it adds an initial value to it")
    func methodReplacedByComputedProperty() {
        assertMacro {
            """
            @Endpoint(.post)
            struct Change {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method { .put }
            }
            """
        } diagnostics: {
            """
            @Endpoint(.post)
                      ┬────
                      ╰─ ⚠️ the @RequestHTTPMethod property replaces this method on every request, so it is never sent; give the method as the property's initial value
                         ✏️ remove the method
            struct Change {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method { .put }
            }
            """
        } fixes: {
            """
            @Endpoint
            struct Change {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method { .put }
            }
            """
        } expansion: {
            """
            struct Change {
                typealias Response = Book
                var method: HTTPRequest.Method { .put }

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

    @Test("An optional @PathParameter or @RequestCookies initialised to nil: no fix-it that leaves 'Int = nil'")
    func optionalInitialisedToNil() {
        assertMacro {
            """
            @Endpoint(.get, "/books/{id}")
            struct GetBook {
                typealias Response = Book
                @PathParameter var id: Int? = nil
                @RequestCookies var cookies: [Cookie]? = nil
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books/{id}")
            struct GetBook {
                typealias Response = Book
                @PathParameter var id: Int? = nil
                                       ┬───
                                       ╰─ ⚠️ a path value cannot be left out, so a nil here fails the request when it is sent; make the property non-optional
                @RequestCookies var cookies: [Cookie]? = nil
                                             ┬────────
                                             ╰─ 🛑 this property's type is not the one its attribute reads or writes; change the type (@RequestCookies needs '[Cookie]', not '[Cookie]?')
            }
            """
        }
    }

    @Test("A path without a leading slash, with an escape: the fix-it inserts '/' and keeps the escape as written")
    func leadingSlashKeepsEscapes() {
        assertMacro {
            #"""
            @Endpoint(.get, "books\u{2D}new")
            struct ListBooks {
                typealias Response = [Book]
            }
            """#
        } diagnostics: {
            #"""
            @Endpoint(.get, "books\u{2D}new")
                            ┬───────────────
                            ╰─ ⚠️ the path should start with '/'; it is appended to the provider's base URL
                               ✏️ insert '/'
            struct ListBooks {
                typealias Response = [Book]
            }
            """#
        } fixes: {
            #"""
            @Endpoint(.get, "/books\u{2D}new")
            struct ListBooks {
                typealias Response = [Book]
            }
            """#
        } expansion: {
            """
            struct ListBooks {
                typealias Response = [Book]

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    let request = Courier.RequestBuilder(method: .get, path: "/books-new", operationID: "ListBooks")
                    return request
                }
            }

            extension ListBooks: Courier.Endpoint {
            }
            """
        }
    }
}
