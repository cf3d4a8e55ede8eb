import Testing
@testable import SyncLabJSON

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

    /// The scalar-by-scalar escaping the writer used before it wrote bytes: the reference the
    /// byte writer must match exactly.
    static func escapedByScalar(_ value: String) -> String {
        var output = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "\u{08}": output.append("\\b")
            case "\u{0C}": output.append("\\f")
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    @Test func everyASCIIByteIsEscapedAsTheScalarWriterDid() {
        for byte in UInt8(0)...0x7F {
            let scalar = String(UnicodeScalar(byte))
            for text in [scalar, "a" + scalar + "é", scalar + scalar + "😀" + scalar] {
                #expect(JSON.string(text).rendered() == Self.escapedByScalar(text), "byte \(byte)")
            }
        }
    }

    @Test func textWithoutEscapesIsCopiedWhole() {
        for text in ["", "plain", "é😀/\u{7F}\u{85}\u{2028}", String(repeating: "abc ", count: 100), "long \(String(repeating: "x", count: 5000))\n"] {
            #expect(JSON.string(text).rendered() == Self.escapedByScalar(text))
            var output = "prefix "
            JSON.writeString(text, into: &output)
            #expect(output == "prefix " + Self.escapedByScalar(text))
        }
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -1_000_000, -10, -9, -1, 0, 1, 9, 10, 99, 100, 1_234_567_890_123, Int64.max])
    func integersAreWrittenAsStringSpellsThem(value: Int64) {
        #expect(JSON.int(value).rendered() == String(value))
    }

    @Test func bytesAreTheCompactRendering() {
        let json = JSON.object([("t_us", .int(-5)), ("s", .string("a\"é")), ("x", .array([.double(0.5), .null, .bool(false)]))])
        var bytes = Array("line\n".utf8)
        json.write(into: &bytes)
        #expect(bytes == Array(("line\n" + json.rendered()).utf8))
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
        case .largeInteger(let digits): return UInt64(digits).map(JSON.uint) ?? .string("not a UInt64: \(digits)")
        case .double(let value): return .double(value)
        case .bool(let value): return .bool(value)
        case .null: return .null
        }
    }

    @Test("an unsigned integer above Int64.max is written in full and reads back as the same number", arguments: [
        (UInt64(0), "0"), (UInt64(Int64.max), "9223372036854775807"), (UInt64(Int64.max) + 1, "9223372036854775808"),
        (UInt64.max, "18446744073709551615"),
    ])
    func unsignedIntegersAreWrittenInFull(value: UInt64, expected: String) throws {
        #expect(JSON.uint(value).rendered() == expected)
        #expect(try JSON5Reader.parse(expected).value.unsignedValue == value)
        #expect(JSON.object([("seed", .uint(value))]).renderedPretty() == "{\n  \"seed\": \(expected)\n}\n")
    }
}
