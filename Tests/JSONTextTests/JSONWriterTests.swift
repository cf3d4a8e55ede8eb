import Testing
@testable import JSONText

@Suite("JSON writer")
struct JSONWriterTests {
    @Test func compactRenderingHasNoSpacesAndKeepsMemberOrder() {
        let json = JSON.object([("b", .int(1)), ("a", .array([.bool(true), .null]))])
        #expect(json.rendered() == #"{"b":1,"a":[true,null]}"#)
    }

    @Test func sortedObjectsOrderKeysByUTF8Bytes() {
        let json = JSON.sortedObject([("b", .int(1)), ("a", .int(2)), ("B", .int(3)), ("é", .int(4)), ("z", .int(5))])
        #expect(json.rendered() == #"{"B":3,"a":2,"b":1,"z":5,"é":4}"#)
    }

    @Test func prettyRenderingIndentsTwoSpacesAndEndsWithANewline() {
        let json = JSON.object([("a", .int(1)), ("b", .array([.int(2), .object([JSONField]())])), ("c", .array([]))])
        #expect(json.renderedPretty() == "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    {}\n  ],\n  \"c\": []\n}\n")
    }

    @Test(arguments: [
        (1.0, "1.0"), (0.1, "0.1"), (1e-05, "1.0e-05"), (-2.5, "-2.5"), (1e20, "1.0e+20"), (123456789.0, "123456789.0"),
        (Double.nan, "null"), (Double.infinity, "null"), (-Double.infinity, "null"), (Double.leastNonzeroMagnitude, "5.0e-324"), (1.5e300, "1.5e+300"),
    ])
    func doublesAlwaysHaveADecimalPoint(value: Double, expected: String) {
        #expect(JSON.double(value).rendered() == expected)
    }

    @Test func doublesRoundTripThroughTheReader() throws {
        for value in [0.1, 1.0 / 3.0, 1e-7, 123.456, -0.0, 2.5e15, 1e22] {
            let node = try JSON5Reader.parse(JSON.double(value).rendered())
            guard case .double(let parsed) = node.value else { Issue.record("\(value) read back as \(node.value)"); continue }
            #expect(parsed == value)
        }
    }

    @Test func stringsAreEscapedPerRFC8259() {
        let text = "q\"b\\n\nt\tr\rb\u{08}f\u{0C}c\u{01}\u{1F}é😀/"
        #expect(JSON.string(text).rendered() == #""q\"b\\n\nt\tr\rb\bf\fc\u0001\u001fé😀/""#)
    }

    @Test func onlyQuotesBackslashesAndControlBytesNeedEscaping() {
        for byte in UInt8(0)...0x7F {
            let text = "a" + String(UnicodeScalar(byte)) + "é"
            #expect(JSON.needsEscaping(text) == (byte < 0x20 || byte == 0x22 || byte == 0x5C), "byte \(byte)")
        }
        #expect(!JSON.needsEscaping("plain é😀 text / with \u{7F}"))
        #expect(!JSON.needsEscaping(""))
    }

    @Test func stringsWithoutEscapesRenderTheSameAsScalarByScalar() {
        // The whole-string path must give the bytes the escaping loop gives for such strings.
        for text in ["", "plain", "é😀/\u{7F}\u{85}\u{2028}", String(repeating: "abc ", count: 100)] {
            var expected = "\""
            expected.unicodeScalars.append(contentsOf: text.unicodeScalars)
            expected.append("\"")
            #expect(JSON.string(text).rendered() == expected)
        }
    }

    @Test func renderedTextParsesBackToTheSameTree() throws {
        let json = JSON.object([
            ("name", .string("line\none \"quoted\"")), ("count", .int(-42)), ("ratio", .double(0.25)),
            ("flags", .array([.bool(false), .null])), ("nested", .sortedObject([("z", .int(1)), ("a", .string("é"))])),
        ])
        for text in [json.rendered(), json.renderedPretty()] {
            let node = try JSON5Reader.parse(text)
            #expect(JSONWriterTests.convert(node) == json)
        }
    }

    /// Reader tree → writer tree, for round-trip comparison.
    static func convert(_ node: JSONNode) -> JSON {
        switch node.value {
        case .object(let members): return .object(members.map { JSONField($0.key, convert($0.value)) })
        case .array(let elements): return .array(elements.map(convert))
        case .string(let text): return .string(text)
        case .integer(let value): return .int(value)
        case .double(let value): return .double(value)
        case .bool(let value): return .bool(value)
        case .null: return .null
        }
    }
}
