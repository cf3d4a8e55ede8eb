import Testing
@testable import SyncLabJSON

/// Reading is linear (issue 14, item 7): every member and element moves into its container once.
/// (The parser once copied a container's elements at every new element: 40,000 steps took 13 s.)
struct JSON5ReaderScaleTests {
    /// A scenario-like document: `count` step objects of five members in one array.
    static func steps(_ count: Int) -> [UInt8] {
        var text = "{\"steps\": ["
        for index in 0..<count {
            text += "{\"at\": \"\(index)s\", \"device\": \"A\", \"op\": \"kvs.set\", \"key\": \"k\", \"value\": \(index)},"
        }
        text += "]}"
        return Array(text.utf8)
    }

    @Test func aLargeArrayIsReadWithOneMovePerMemberAndElement() throws {
        let count = 50_000
        let (root, moved) = try JSON5Reader.parseCountingMoves(bytes: JSON5ReaderScaleTests.steps(count))
        guard case .array(let steps) = root["steps"]?.value else { Issue.record("no steps"); return }
        #expect(steps.count == count)
        // Five members per step, one element per step, one member for "steps".
        #expect(moved == count * 5 + count + 1)
    }

    @Test func doublingTheDocumentDoublesTheWork() throws {
        let (_, small) = try JSON5Reader.parseCountingMoves(bytes: JSON5ReaderScaleTests.steps(20_000))
        let (_, large) = try JSON5Reader.parseCountingMoves(bytes: JSON5ReaderScaleTests.steps(40_000))
        #expect(large == 2 * small - 1)
    }

    @Test func aDuplicateKeyDeepInsideArraysStillNamesItsPath() throws {
        var duplicates: [JSONParseError] = []
        _ = try JSON5Reader.parse(bytes: Array(#"{"a": [1, [2, 3, {"b": 1, "b": 2}]], "c": 0}"#.utf8), duplicates: &duplicates)
        #expect(duplicates.map(\.path) == ["a[1][2].b"])
    }
}
