import Courier
import Foundation
import Testing

/// Large and repetitive form bodies: each key is found by key and each list grows in place, so a
/// body of many keys reads completely and in order.
struct FormDecoderTests {
    struct Tagged: Decodable, Equatable { var tag: [String]; var tags: [String]; var name: String }

    @Test func manyDistinctKeysAllArrive() throws {
        let count = 20_000
        let body = (0..<count).map { "k\($0)=v\($0)" }.joined(separator: "&")
        let form = try URLFormDecoder().decode([String: String].self, from: Data(body.utf8))
        #expect(form.count == count)
        #expect(form["k0"] == "v0")
        #expect(form["k19999"] == "v19999")
    }

    @Test func repeatedKeysAndBracketListsKeepTheirOrder() throws {
        let count = 10_000
        let repeated = (0..<count).map { "tag=\($0)" }.joined(separator: "&")
        let bracketed = (0..<count).map { "tags[]=\($0)" }.joined(separator: "&")
        let body = "name=n&" + repeated + "&" + bracketed
        let form = try URLFormDecoder().decode(Tagged.self, from: Data(body.utf8))
        #expect(form.tag == (0..<count).map(String.init))
        #expect(form.tags == (0..<count).map(String.init))
        #expect(form.name == "n")
    }

    @Test func aKeyThatIsBothNestedAndRepeatedBecomesAList() throws {
        // `a[b]=1` makes `a` keyed; `a=2` then makes it a list of that and the text.
        struct Inner: Decodable, Equatable { var b: String }
        struct Outer: Decodable { var a: [Inner?] }
        let body = Data("a[b]=1&a=2".utf8)
        #expect(throws: DecodingError.self) { try URLFormDecoder().decode(Outer.self, from: body) }
        struct Loose: Decodable { var a: [Value] }
        enum Value: Decodable, Equatable {
            case keyed([String: String]), text(String)
            init(from decoder: any Decoder) throws {
                if let keyed = try? decoder.container(keyedBy: AnyKey.self), !keyed.allKeys.isEmpty {
                    var values: [String: String] = [:]
                    for key in keyed.allKeys { values[key.stringValue] = try keyed.decode(String.self, forKey: key) }
                    self = .keyed(values)
                } else {
                    self = .text(try decoder.singleValueContainer().decode(String.self))
                }
            }
        }
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        #expect(try URLFormDecoder().decode(Loose.self, from: body).a == [.keyed(["b": "1"]), .text("2")])
        // The same key spelled in two canonically equivalent ways is one key, as `String` compares.
        let equivalent = Data("caf%C3%A9=1&cafe%CC%81=2".utf8)
        #expect(try URLFormDecoder().decode([String: [String]].self, from: equivalent) == ["café": ["1", "2"]])
    }
}
