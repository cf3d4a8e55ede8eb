import Testing
@testable import SyncLabJSON

/// Parses or fails the test with the error's message.
private func parse(_ text: String) throws -> JSONNode {
    try JSON5Reader.parse(text)
}

/// The error a text gives, or nil when it parses.
private func parseError(_ text: String) -> JSONParseError? {
    do { _ = try JSON5Reader.parse(text); return nil } catch { return error }
}

private func parseError(bytes: [UInt8]) -> JSONParseError? {
    do { _ = try JSON5Reader.parse(bytes: bytes); return nil } catch { return error }
}

@Suite("JSON5 reader")
struct JSON5ReaderTests {
    @Test func objectMembersKeepTheirFileOrder() throws {
        let node = try parse(#"{"b": 1, "a": 2, "c": 3}"#)
        #expect(node.members?.map(\.key) == ["b", "a", "c"])
    }

    @Test func integersAndDoublesAreDifferentKinds() throws {
        let node = try parse("[1, 1.0, 1e3, -7, 0, -0.5]")
        guard case .array(let elements) = node.value else { Issue.record("not an array"); return }
        guard case .integer(1) = elements[0].value else { Issue.record("1 is not an integer"); return }
        guard case .double(1.0) = elements[1].value else { Issue.record("1.0 is not a double"); return }
        guard case .double(1000.0) = elements[2].value else { Issue.record("1e3 is not a double"); return }
        guard case .integer(-7) = elements[3].value else { Issue.record("-7"); return }
        guard case .integer(0) = elements[4].value else { Issue.record("0"); return }
        guard case .double(-0.5) = elements[5].value else { Issue.record("-0.5"); return }
    }

    @Test func valuesAndKeysCarryLineAndColumn() throws {
        let text = "{\n  \"a\": [1,\n    true],\n  b: 'x'\n}"
        let node = try parse(text)
        #expect(node.position == SourcePosition(line: 1, column: 1))
        let members = try #require(node.members)
        #expect(members[0].keyPosition == SourcePosition(line: 2, column: 3))
        #expect(members[0].value.position == SourcePosition(line: 2, column: 8))
        guard case .array(let elements) = members[0].value.value else { Issue.record("not an array"); return }
        #expect(elements[1].position == SourcePosition(line: 3, column: 5))
        #expect(members[1].keyPosition == SourcePosition(line: 4, column: 3))
        #expect(members[1].value.position == SourcePosition(line: 4, column: 6))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let node = try parse("{\"é€\": 1, \"x\": 2}")
        let members = try #require(node.members)
        #expect(members[1].keyPosition == SourcePosition(line: 1, column: 11))
    }

    @Test func json5FeaturesAreAccepted() throws {
        let text = """
        // A comment.
        {
          unquoted: 'single',   /* block
          comment */
          "trailing": [1, 2,],
          plus: +5, dot: .5, trail: 5., hex: 0x1F, inf: -Infinity,
        }
        """
        let node = try parse(text)
        let members = try #require(node.members)
        #expect(members.map(\.key) == ["unquoted", "trailing", "plus", "dot", "trail", "hex", "inf"])
        guard case .string("single") = members[0].value.value else { Issue.record("single-quoted string"); return }
        guard case .array(let elements) = members[1].value.value, elements.count == 2 else { Issue.record("trailing comma"); return }
        guard case .integer(5) = members[2].value.value else { Issue.record("+5"); return }
        guard case .double(0.5) = members[3].value.value else { Issue.record(".5"); return }
        guard case .double(5.0) = members[4].value.value else { Issue.record("5."); return }
        guard case .integer(31) = members[5].value.value else { Issue.record("0x1F"); return }
        guard case .double(let infinity) = members[6].value.value, infinity == -.infinity else { Issue.record("-Infinity"); return }
    }

    @Test func escapesIncludingSurrogatePairsDecode() throws {
        let node = try parse(#"["a\"b\\c\/d\n\t\r\b\f", "\u00e9\ud83d\ude00", 'it\'s', "\x41"]"#)
        guard case .array(let elements) = node.value else { Issue.record("not an array"); return }
        guard case .string(let first) = elements[0].value else { Issue.record("not a string"); return }
        #expect(first == "a\"b\\c/d\n\t\r\u{08}\u{0C}")
        guard case .string(let second) = elements[1].value else { Issue.record("not a string"); return }
        #expect(second == "é😀")
        guard case .string("it's") = elements[2].value else { Issue.record("escaped single quote"); return }
        guard case .string("A") = elements[3].value else { Issue.record("\\x41"); return }
    }

    @Test func aDuplicateKeyIsAnErrorAtTheSecondKey() {
        let error = parseError("{\"a\": 1,\n \"a\": 2}")
        #expect(error?.position == SourcePosition(line: 2, column: 2))
        #expect(error?.message.contains("duplicate key \"a\"") == true)
        #expect(error?.message.contains("line 1, column 2") == true)
        #expect(error?.path == "a")
    }

    @Test func aDuplicateKeyNamesItsPath() {
        #expect(parseError(#"{"steps": [{"at": 1}, {"value": 1, "value": 2}]}"#)?.path == "steps[1].value")
        #expect(parseError(#"{"a": {"b": [[0, {"c": 1, "c": 2}]]}}"#)?.path == "a.b[0][1].c")
        #expect(parseError(#"{"a": }"#)?.path == nil)
    }

    @Test func aMissingCommaNamesWhatWasExpected() {
        let error = parseError("{\"a\": 1 \"b\": 2}")
        #expect(error?.message == "expected ',' or '}' after object member")
        #expect(error?.position == SourcePosition(line: 1, column: 9))
        #expect(parseError("[1 2]")?.message == "expected ',' or ']' after array element")
    }

    @Test func anUnterminatedStringPointsAtItsStart() {
        let error = parseError("{\"a\": \"abc")
        #expect(error?.message == "unterminated string")
        #expect(error?.position == SourcePosition(line: 1, column: 7))
        #expect(parseError("[\"a\nb\"]")?.message.hasPrefix("unterminated string") == true)
    }

    @Test(arguments: [
        ("", "empty input"),
        ("   // only a comment\n", "empty input"),
        ("{", "unterminated object"),
        ("[1,", "unexpected end of input"),
        ("{a 1}", "expected ':' after key \"a\""),
        ("[tru]", "unexpected word 'tru'"),
        ("[01]", "leading zeros"),
        ("[1.2.3]", "invalid number"),
        ("[12ab]", "invalid number"),
        ("[\"\\q\"]", "unknown escape"),
        ("[\"\\ud800\"]", "surrogate"),
        ("[\"\\udc00\"]", "unpaired low surrogate"),
        ("{} x", "unexpected text after"),
        ("/* never closed", "unterminated /* comment"),
        ("[@]", "expected a value, got '@'"),
        ("{,}", "expected a key"),
    ])
    func invalidInputGivesAClearError(text: String, fragment: String) {
        let error = parseError(text)
        #expect(error != nil)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "no error")")
    }

    @Test func binaryInputIsAnErrorNotACrash() {
        let nul = parseError(bytes: [0x7B, 0x00, 0x7D])
        #expect(nul?.message.contains("NUL") == true)
        #expect(nul?.position == SourcePosition(line: 1, column: 2))
        let invalid = parseError(bytes: [0x7B, 0x0A, 0x20, 0xFF, 0xFE])
        #expect(invalid?.message.contains("not UTF-8") == true)
        #expect(invalid?.position == SourcePosition(line: 2, column: 2))
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let node = try JSON5Reader.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8))
        #expect(node.members?.first?.keyPosition == SourcePosition(line: 1, column: 2))
    }

    @Test func deepNestingIsBoundedWithoutRecursion() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(parseError(deep)?.message.contains("nesting deeper than") == true)
        let ok = String(repeating: "[", count: JSON5Reader.maximumDepth) + String(repeating: "]", count: JSON5Reader.maximumDepth)
        #expect(parseError(ok) == nil)
        let tooDeep = String(repeating: "{\"a\":", count: 512) + "1" + String(repeating: "}", count: 512)
        #expect(parseError(tooDeep)?.message.contains("nesting deeper than") == true)
    }

    @Test func int64BoundsParseExactly() throws {
        let node = try parse("[9223372036854775807, -9223372036854775808]")
        guard case .array(let elements) = node.value,
              case .integer(Int64.max) = elements[0].value,
              case .integer(Int64.min) = elements[1].value else { Issue.record("bounds"); return }
    }

    @Test("an integer beyond the signed 64-bit range is kept as its digits, for the field's reader to judge", arguments: [
        ("9223372036854775808", "9223372036854775808"), ("18446744073709551615", "18446744073709551615"),
        ("18446744073709551616", "18446744073709551616"), ("-9223372036854775809", "-9223372036854775809"),
        ("99999999999999999999", "99999999999999999999"), ("0x8000000000000000", "9223372036854775808"),
        ("-0x8000000000000001", "-9223372036854775809"),
    ])
    func largeIntegersAreKept(text: String, digits: String) throws {
        let node = try JSON5Reader.parse("{seed: \(text)}")
        guard case .largeInteger(let kept)? = node["seed"]?.value else { Issue.record("\(text) read as \(String(describing: node["seed"]?.value))"); return }
        #expect(kept == digits)
        #expect(node["seed"]?.value.unsignedValue == UInt64(digits))
    }

    @Test func integersWithinSixtyFourSignedBitsStayIntegers() throws {
        guard case .integer(Int64.max) = try JSON5Reader.parse("9223372036854775807").value else { Issue.record("Int64.max"); return }
        guard case .integer(Int64.min) = try JSON5Reader.parse("-9223372036854775808").value else { Issue.record("Int64.min"); return }
        guard case .integer(Int64.min) = try JSON5Reader.parse("-0x8000000000000000").value else { Issue.record("-0x8…"); return }
        #expect(try JSON5Reader.parse("-1").value.unsignedValue == nil)
    }
}
