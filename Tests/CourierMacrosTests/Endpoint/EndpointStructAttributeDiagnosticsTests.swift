@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite("@Endpoint misuse: attributes on the struct that it does not read", .macros(courierMacros))
struct EndpointStructAttributeDiagnosticsTests {
    @Test("A method attribute on the struct, with @Endpoint bare: a fix-it moves it into @Endpoint")
    func methodAttributeOnStruct() {
        assertMacro {
            """
            @POST("/books")
            @Endpoint
            struct AddBook {
                typealias Response = Book
                @RequestBody var book: NewBook
            }
            """
        } diagnostics: {
            """
            @POST("/books")
            ┬──────────────
            ╰─ 🛑 a method attribute belongs to a function of an @API protocol, and @Endpoint does not read it; give the method and path to @Endpoint
               ✏️ move the method and path to @Endpoint
            @Endpoint
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

    @Test("A method attribute beside a method in @Endpoint: a fix-it removes it")
    func methodAttributeBesideEndpointMethod() {
        assertMacro {
            """
            @Endpoint(.post, "/books")
            @GET("/books")
            struct AddBook {
                typealias Response = Book
                @RequestBody var book: NewBook
            }
            """
        } diagnostics: {
            """
            @Endpoint(.post, "/books")
            @GET("/books")
            ┬─────────────
            ╰─ 🛑 a method attribute belongs to a function of an @API protocol, and @Endpoint does not read it; give the method and path to @Endpoint
               ✏️ remove '@GET'
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

    @Test("@Multipart on a request struct, which would be ignored")
    func multipartOnStruct() {
        assertMacro {
            """
            @Multipart
            @Endpoint(.post, "/covers")
            struct UploadCover {
                typealias Response = EmptyResponse
                @RequestBody var form: MultipartForm
            }
            """
        } diagnostics: {
            """
            @Multipart
            ┬─────────
            ╰─ 🛑 @Multipart does not apply to a request struct; give the body as a MultipartForm property marked @RequestBody
               ✏️ remove '@Multipart'
            @Endpoint(.post, "/covers")
            struct UploadCover {
                typealias Response = EmptyResponse
                @RequestBody var form: MultipartForm
            }
            """
        } fixes: {
            """
            @Endpoint(.post, "/covers")
            struct UploadCover {
                typealias Response = EmptyResponse
                @RequestBody var form: MultipartForm
            }
            """
        } expansion: {
            """
            struct UploadCover {
                typealias Response = EmptyResponse
                var form: MultipartForm

                /// The request this value describes.
                func makeRequest() -> Courier.RequestBuilder {
                    var request = Courier.RequestBuilder(method: .post, path: "/covers", operationID: "UploadCover")
                    #sourceLocation(file: "Test.swift", line: 4)
                    request.__setBody(self.form)
                    #sourceLocation()
                    return request
                }
            }

            extension UploadCover: Courier.Endpoint {
            }
            """
        }
    }

    @Test("A makeRequest() of the struct's own")
    func ownMakeRequest() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct ListBooks {
                typealias Response = [Book]
                func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/") }
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct ListBooks {
                typealias Response = [Book]
                func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/") }
                     ┬──────────
                     ╰─ 🛑 @Endpoint writes makeRequest() from the annotated properties; remove this one, or remove @Endpoint and conform to Endpoint yourself
            }
            """
        }
    }
}
