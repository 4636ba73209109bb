import Foundation
import Testing
@testable import RewindJSON

/// `JSONValueDecoder` reads back what `JSONEncoding` writes, and names the field when it cannot.
@Suite struct ReplayDecoderTests {
    struct Everything: Codable, Equatable {
        enum Kind: Codable, Equatable { case plain, tagged(String, weight: Int), nested(Inner) }
        struct Inner: Codable, Equatable { var values: [Int?]; var flag: Bool }

        var name = "Ann"
        var small: Int8 = -5
        var big: UInt64 = 1 << 63
        var ratio: Float = 0.1
        var notANumber = Double.infinity
        var optionalMissing: String?
        var optionalPresent: String? = "here"
        var when = Date(timeIntervalSinceReferenceDate: 12345.5)
        var blob = Data([0, 1, 2, 250])
        var link = URL(string: "https://example.com/a?b=c")!
        var price = Decimal(string: "12.75")!
        var byID: [Int: String] = [1: "one", 20: "twenty"]
        var byKind: [Inner.Kind2: Int] = [.b: 2]
        var kinds: [Kind] = [.plain, .tagged("x", weight: 3), .nested(Inner(values: [1, nil, 3], flag: true))]
        var set: Set<String> = ["a"]
    }

    @Test func decodesWhatTheEncoderWrites() throws {
        let value = Everything()
        let json = try JSONEncoding.value(of: value)
        let decoded = try JSONValueDecoder().decode(Everything.self, from: json)
        #expect(decoded == value)
    }

    @Test func decodesWhatFoundationWrites() throws {
        let value = Everything(notANumber: 2.5)
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONValueDecoder().decode(Everything.self, from: try JSONParser.parse(data))
        #expect(decoded == value)
    }

    struct Order: Codable { var lines: [Line] }
    struct Line: Codable { var title: String; var quantity: Int }

    @Test func errorsNameTheField() {
        func message(_ json: JSONValue) -> String {
            do {
                _ = try JSONValueDecoder().decode(Order.self, from: json)
                return "decoded"
            } catch {
                return error.description
            }
        }
        #expect(message(["lines": [["title": "a", "quantity": 1], ["title": 3, "quantity": 1]]])
            == "lines[1].title: expected a string, found 3")
        #expect(message(["lines": [["title": "a"]]]) == #"lines[0].quantity: missing (the object has no member "quantity")"#)
        #expect(message(["lines": [["title": "a", "quantity": 1.5]]]) == "lines[0].quantity: 1.5 is not a whole number that fits in Int")
        #expect(message(["lines": "none"]) == "lines: expected an array, found \"none\"")
        #expect(message([1, 2]) == "expected an object, found an array")
    }

    @Test func enumCaseErrorsNameTheCaseAndField() {
        enum Action: Codable { case rename(id: Int, to: String) }
        do {
            _ = try JSONValueDecoder().decode(Action.self, from: ["rename": ["id": 1, "title": "x"]])
            Issue.record("decoded")
        } catch {
            #expect(error.field == "rename.to")
        }
    }
}

extension ReplayDecoderTests.Everything.Inner {
    /// A key type that is neither String nor Int: dictionaries of it encode as flat arrays.
    enum Kind2: String, Codable, Hashable { case a, b }
}
