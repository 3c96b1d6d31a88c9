@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite("@Endpoint: members an earlier release called by other names", .macros(courierMacros))
struct EndpointRenamedMembersTests {
    @Test("intercept(request:) and a static retryPolicy: warned, with fix-its to beforeSending(_:) and an instance property")
    func renamedMembers() {
        assertMacro {
            """
            @Endpoint(.get, "/books")
            struct ListBooks {
                typealias Response = [Book]
                static var retryPolicy: RetryPolicy? { .standard }
                func intercept(request: inout RawRequest) throws {
                    request.headers[.accept] = "application/json"
                }
            }
            """
        } diagnostics: {
            """
            @Endpoint(.get, "/books")
            struct ListBooks {
                typealias Response = [Book]
                static var retryPolicy: RetryPolicy? { .standard }
                ┬─────
                ╰─ ⚠️ an Endpoint's retry policy is now the instance property 'retryPolicy'; the static one is deprecated, still read when the instance one is nil for one release
                   ✏️ make it an instance property
                func intercept(request: inout RawRequest) throws {
                     ┬────────
                     ╰─ ⚠️ an Endpoint's hook is now 'beforeSending(_:)'; 'intercept(request:)' is its deprecated name, still called after it for one release
                        ✏️ rename it 'beforeSending(_:)'
                    request.headers[.accept] = "application/json"
                }
            }
            """
        } fixes: {
            """
            @Endpoint(.get, "/books")
            struct ListBooks {
                typealias Response = [Book]
                var retryPolicy: RetryPolicy? { .standard }
                func beforeSending(_ request: inout RawRequest) throws {
                    request.headers[.accept] = "application/json"
                }
            }
            """
        } expansion: {
            """
            struct ListBooks {
                typealias Response = [Book]
                var retryPolicy: RetryPolicy? { .standard }
                func beforeSending(_ request: inout RawRequest) throws {
                    request.headers[.accept] = "application/json"
                }

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
}
