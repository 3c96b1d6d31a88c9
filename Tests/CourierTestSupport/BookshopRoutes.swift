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
        shop.put("/books/:id") { request, context in
            let id = context.parameters.get("id", as: Int.self) ?? 0
            let body = try await request.body.collect(upTo: 1 << 20)
            let title = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])?["title"] as? String ?? "?"
            let book = #"{"id":\#(id),"title":"\#(title)","genre":"fiction","addedAt":"2026-11-26T10:00:00Z"}"#
            switch id {
            case 1: return TestServer.json(book)
            case 2: return TestServer.json(book, status: .created)
            case 3: return TestServer.json(#"{"holder":"Ada"}"#, status: .conflict)
            default: return TestServer.json(#"{"title":"No shelf for \#(id)"}"#, status: .serviceUnavailable)
            }
        }
        shop.delete("/books/:id") { _, _ in Response(status: .noContent) }
        // The names and contents of the parts, as `name=content` lines; the type says multipart.
        shop.post("/books/:id/cover") { request, _ in
            let body = String(decoding: Data(try await request.body.collect(upTo: 1 << 20).readableBytesView), as: UTF8.self)
            let type = request.headers[.contentType] ?? ""
            var lines = [type.hasPrefix("multipart/form-data; boundary=") ? "multipart" : "not multipart: \(type)"]
            for part in body.components(separatedBy: "Content-Disposition: form-data; name=\"").dropFirst() {
                let name = part.prefix { $0 != "\"" }
                let content = part.components(separatedBy: "\r\n\r\n").dropFirst().first?.components(separatedBy: "\r\n--").first ?? ""
                lines.append("\(name)=\(content)")
            }
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: lines.joined(separator: "\n"))))
        }
        shop.get("/books/:id/reviews") { request, _ in
            guard request.headers[.authorization] == "Bearer t0k3n" else { return TestServer.json(#"{"title":"who are you?"}"#, status: .unauthorized) }
            return TestServer.json(#"[{"kind":"reader","stars":5},{"kind":"critic","text":"Sharp.","outlet":"The Times"}]"#)
        }
        shop.get("/stock") { request, _ in
            guard request.headers[HTTPField.Name("X-Shop-Key")!] == "shop-1", request.uri.queryParameters["partner_key"] == "p-2" else {
                return TestServer.json(#"{"title":"wrong keys"}"#, status: .forbidden)
            }
            return TestServer.json(#"{"9780441013593":3,"9780000000000":0}"#)
        }

        // swift-openapi-generator's tutorial document, under /greeting/api.
        router.get("/greeting/api/greet") { request, _ in
            let name = request.uri.queryParameters["name"].map(String.init) ?? "Stranger"
            return TestServer.json(#"{"message":"Hello, \#(name)!"}"#)
        }
    }
}
