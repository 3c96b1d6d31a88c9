@testable import Courier
import Foundation
import Testing

@Suite("Key mapping and the URL form encoder", .timeLimit(.minutes(2)))
struct CodingTests {
    @Test(
        "Snake case matches JSONEncoder's conversion",
        arguments: ["userID", "myURLValue", "simple", "isHTTPS", "a", "already_snake", "HTTPStatus", "value2Go", ""]
    )
    func snakeCaseMatchesFoundation(key: String) throws {
        struct Probe: Encodable {
            let key: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: MappedCodingKey.self)
                try container.encode(1, forKey: MappedCodingKey(key))
            }
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let json = try JSONSerialization.jsonObject(with: encoder.encode(Probe(key: key))) as? [String: Int]
        #expect(json?.keys.first == KeyMapping.snakeCase.encode(key))
    }

    @Test("Snake case decodes back to camel case", arguments: [("user_id", "userId"), ("display_name", "displayName"), ("_private", "_private"), ("plain", "plain")])
    func camelCase(input: String, expected: String) {
        #expect(KeyMapping.snakeCase.decode(input) == expected)
    }

    @Test("The form encoder refuses a value with no keys at the top level")
    func formTopLevel() {
        #expect(throws: EncodingError.self) { try URLFormEncoder().encode("just a string") }
    }

    @Test("Indexed arrays and dates in forms")
    func formOptions() throws {
        struct Form: Encodable { var at = Date(timeIntervalSince1970: 0); var ids = [1, 2] }
        let text = String(decoding: try URLFormEncoder(arrayEncoding: .indexed, dateEncoding: .custom { String($0.timeIntervalSince1970) }).encode(Form()), as: UTF8.self)
        #expect(text == "at=0.0&ids[0]=1&ids[1]=2")
    }
}
