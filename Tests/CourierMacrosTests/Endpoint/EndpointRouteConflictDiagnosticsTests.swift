@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite("@Endpoint misuse: two sources of the method, the path or the URL", .macros(courierMacros))
struct EndpointRouteConflictDiagnosticsTests {
    @Test("A method in @Endpoint beside @RequestHTTPMethod: a fix-it writes the default before the path")
    func methodReplacedBeforePath() {
        assertMacro {
            """
            @Endpoint(.post, "/books")
            struct ChangeBook {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method
            }
            """
        } diagnostics: {
            """
            @Endpoint(.post, "/books")
                      ┬────
                      ╰─ ⚠️ the @RequestHTTPMethod property replaces this method on every request, so it is never sent; give the method as the property's initial value
                         ✏️ make '.post' the property's initial value
            struct ChangeBook {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method
            }
            """
        } fixes: {
            """
            @Endpoint(.get, "/books")
            struct ChangeBook {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method = .post
            }
            """
        } expansion: {
            """
            struct ChangeBook {
                typealias Response = Book
                var method: HTTPRequest.Method = .post

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/books", operationID: "ChangeBook")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.method = self.method
                    #sourceLocation()
                    return request
                }
            }

            extension ChangeBook: Courier.Endpoint {
            }
            """
        }
    }

    @Test("A method alone in @Endpoint beside @RequestHTTPMethod: a fix-it removes it")
    func methodReplacedAlone() {
        assertMacro {
            """
            @Endpoint(.delete)
            struct ChangeBook {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method
                @RequestPath var path = "/books"
            }
            """
        } diagnostics: {
            """
            @Endpoint(.delete)
                      ┬──────
                      ╰─ ⚠️ the @RequestHTTPMethod property replaces this method on every request, so it is never sent; give the method as the property's initial value
                         ✏️ make '.delete' the property's initial value
            struct ChangeBook {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method
                @RequestPath var path = "/books"
            }
            """
        } fixes: {
            """
            @Endpoint
            struct ChangeBook {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method = .delete
                @RequestPath var path = "/books"
            }
            """
        } expansion: {
            """
            struct ChangeBook {
                typealias Response = Book
                var method: HTTPRequest.Method = .delete
                var path = "/books"

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/", operationID: "ChangeBook")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.method = self.method
                    #sourceLocation(file: "Test.swift", line: 5)
                    request.path = self.path
                    #sourceLocation()
                    return request
                }
            }

            extension ChangeBook: Courier.Endpoint {
            }
            """
        }
    }

    @Test("A non-optional @AbsoluteURL beside @RequestPath")
    func absoluteURLAndRequestPath() {
        assertMacro {
            """
            @Endpoint
            struct Fetch {
                typealias Response = Data
                @RequestPath var path = "/books"
                @AbsoluteURL var url: URL
            }
            """
        } diagnostics: {
            """
            @Endpoint
            struct Fetch {
                typealias Response = Data
                @RequestPath var path = "/books"
                @AbsoluteURL var url: URL
                ┬───────────
                ╰─ 🛑 a non-optional @AbsoluteURL replaces the path on every request, so a @RequestPath beside it is never sent; keep one of the two, or make the URL optional to fall back on the path
            }
            """
        }
    }

    @Test("A path in @Endpoint beside a non-optional @AbsoluteURL: a warning, and a fix-it that removes the path")
    func pathReplacedByAbsoluteURL() {
        assertMacro {
            """
            @Endpoint(.get, "/mirror")
            struct Mirror {
                typealias Response = Data
                @AbsoluteURL var url: URL
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/mirror")
                            ┬────────
                            ╰─ ⚠️ a non-optional @AbsoluteURL replaces this path on every request, so it is never sent; remove the path, or make the URL optional to fall back on it
                               ✏️ remove the path
            struct Mirror {
                typealias Response = Data
                @AbsoluteURL var url: URL
            }
            """
        } fixes: {
            """
            @Endpoint(.get)
            struct Mirror {
                typealias Response = Data
                @AbsoluteURL var url: URL
            }
            """
        } expansion: {
            """
            struct Mirror {
                typealias Response = Data
                var url: URL

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .get, path: "/", operationID: "Mirror")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.absoluteURL = self.url
                    #sourceLocation()
                    return request
                }
            }

            extension Mirror: Courier.Endpoint {
            }
            """
        }
    }

    @Test("Two @RequestHTTPMethod properties")
    func twoMethodProperties() {
        assertMacro {
            """
            @Endpoint
            struct Change {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method = .put
                @RequestHTTPMethod var verb: HTTPRequest.Method = .patch
            }
            """
        } diagnostics: {
            """
            @Endpoint
            struct Change {
                typealias Response = Book
                @RequestHTTPMethod var method: HTTPRequest.Method = .put
                @RequestHTTPMethod var verb: HTTPRequest.Method = .patch
                ┬─────────────────
                ╰─ 🛑 a request has one method, one path and one absolute URL; remove all but one of these properties (@RequestHTTPMethod)
            }
            """
        }
    }

    @Test("Two @RequestPath properties")
    func twoPathProperties() {
        assertMacro {
            """
            @Endpoint
            struct Fetch {
                typealias Response = Book
                @RequestPath var path = "/books"
                @RequestPath var fallback = "/titles"
            }
            """
        } diagnostics: {
            """
            @Endpoint
            struct Fetch {
                typealias Response = Book
                @RequestPath var path = "/books"
                @RequestPath var fallback = "/titles"
                ┬───────────
                ╰─ 🛑 a request has one method, one path and one absolute URL; remove all but one of these properties (@RequestPath)
            }
            """
        }
    }

    @Test("Two @AbsoluteURL properties")
    func twoAbsoluteURLs() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct Fetch {
                typealias Response = Data
                @AbsoluteURL var mirror: URL?
                @AbsoluteURL var cache: URL?
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct Fetch {
                typealias Response = Data
                @AbsoluteURL var mirror: URL?
                @AbsoluteURL var cache: URL?
                ┬───────────
                ╰─ 🛑 a request has one method, one path and one absolute URL; remove all but one of these properties (@AbsoluteURL)
            }
            """
        }
    }
}
