import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The routes of `Tests/CourierTests/OpenAPI/Documents/bookshop.yaml`, under `/bookshop/v1`, as
/// an independent server answers them: what the generated client sends is read back from the
/// request, so that a test can tell each parameter arrived where the document puts it.
enum BookshopRoutes {
    static func add(to router: Router<TestContext>) {
        let shop = router.group("/bookshop/v1")
        shop.get("/books") { request, _ in
            let query = request.uri.queryParameters
            let genre = query["genre"].map(String.init) ?? ""
            let limit = query["limit"].map(String.init) ?? "null"
            let requestID = request.headers[HTTPField.Name("X-Request-ID")!] ?? "none"
            return TestServer.json(
                """
                [{"id":1,"title":"request \(requestID)","genre":"\(genre)","page_count":\(limit),"addedAt":"2026-11-26T10:00:00Z"},
                 {"id":2,"title":"A later genre","genre":"graphic-novel","addedAt":"2026-11-26T10:00:00.250Z","dimensions":{"width":1.5}}]
                """
            )
        }
        shop.post("/books") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 20)
            guard var object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] else {
                return TestServer.json(#"{"title":"not an object"}"#, status: .badRequest)
            }
            object["id"] = 7
            object["addedAt"] = "2026-11-26T11:00:00Z"
            return TestServer.json(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self), status: .created)
        }
        shop.get("/books/:id") { request, context in
            let id = context.parameters.get("id", as: Int.self) ?? 0
            guard id == 1 else { return TestServer.json(#"{"title":"No book \#(id)","detail":{"id":\#(id)}}"#, status: .notFound) }
            let tag = request.uri.queryParameters["book_id"].map(String.init) ?? "none"
            let cookie = request.headers[.cookie] ?? "none"
            return TestServer.json(#"{"id":1,"title":"query \#(tag), cookie \#(cookie)","genre":"poetry","addedAt":"2026-11-26T10:00:00Z"}"#)
        }
        shop.delete("/books/:id") { _, _ in Response(status: .noContent) }
        shop.get("/books/:id/reviews") { _, _ in
            TestServer.json(#"[{"kind":"reader","stars":5},{"kind":"critic","text":"Sharp.","outlet":"The Times"}]"#)
        }
        shop.get("/stock") { _, _ in TestServer.json(#"{"9780441013593":3,"9780000000000":0}"#) }

        // swift-openapi-generator's tutorial document, under /greeting/api.
        router.get("/greeting/api/greet") { request, _ in
            let name = request.uri.queryParameters["name"].map(String.init) ?? "Stranger"
            return TestServer.json(#"{"message":"Hello, \#(name)!"}"#)
        }
    }
}
