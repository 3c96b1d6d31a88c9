import Courier
import CourierTestSupport
import CourierXML
import Foundation
import Testing

@Endpoint(.post, "/echo/xml")
struct PostXML {
    typealias Response = Echo
    @RequestBody(.xml) var body: Profile
}

@Endpoint(.post, "/echo/xml")
struct PostXMLText {
    typealias Response = Echo
    @RequestBody(.xml) var body: String
}

@EndpointResponse(format: .xml)
struct XMLItemResponse {
    @ResponseBody var item: Item?
    @ResponseHeader(name: "X-Accept-Seen") var acceptSeen: String
}

@Endpoint(.get, "/xml")
struct GetXML {
    typealias Response = XMLItemResponse
}

@Suite("XML bodies and responses", .timeLimit(.minutes(2)))
struct XMLTests {
    @Test("An XML request body arrives, labelled XML (Postie sent none)")
    func xmlRequest() async throws {
        let seen = try await TestServer.provider().send(PostXML(body: Profile(name: "Ada & Co", age: 36)))
        #expect(seen.header("content-type") == "application/xml; charset=utf-8")
        #expect(seen.bodyText.contains("<Profile>"))
        #expect(seen.bodyText.contains("<name>Ada &amp; Co</name>"))
        #expect(seen.bodyText.contains("<age>36</age>"))
    }

    @Test("An XML response is decoded, and Accept asks for XML")
    func xmlResponse() async throws {
        let response = try await TestServer.provider().send(GetXML())
        #expect(response.item == Item(id: 7, name: "Ada & Co"))
        #expect(response.acceptSeen == "application/xml")
    }

    @Test("A value XML cannot hold at the top level is an encoding error, not a crash")
    func topLevelScalar() async throws {
        let error = await #expect(throws: CourierError.self) { try await TestServer.provider().send(PostXMLText(body: "just text")) }
        #expect(error?.kind == .encoding)
        #expect(error?.message.contains("top level") == true)
    }
}
