import Testing
@testable import SyncLabEngines

@Suite("Line-based three-way merge")
struct Diff3Tests {
    func merge(_ base: String, _ ours: String, _ theirs: String) -> Diff3.Result {
        Diff3.merge(base: base, ours: ours, theirs: theirs, oursLabel: "B", theirsLabel: "A")
    }

    @Test("a line inserted at the top on one side is taken")
    func insertAtTop() {
        let result = merge("a\nb\n", "top\na\nb\n", "a\nb\n")
        #expect(result.text == "top\na\nb\n")
        #expect(result.conflictCount == 0)
    }

    @Test("a line inserted in the middle on the other side is taken")
    func insertInMiddle() {
        #expect(merge("a\nb\nc\n", "a\nb\nc\n", "a\nb\nmid\nc\n").text == "a\nb\nmid\nc\n")
    }

    @Test("a line appended at the end on one side is taken")
    func insertAtEnd() {
        #expect(merge("a\nb\n", "a\nb\n", "a\nb\nend\n").text == "a\nb\nend\n")
    }

    @Test("a line deleted on one side is deleted")
    func deleteOnOneSide() {
        #expect(merge("a\nb\nc\n", "a\nc\n", "a\nb\nc\n").text == "a\nc\n")
        #expect(merge("a\nb\nc\n", "a\nb\nc\n", "b\nc\n").text == "b\nc\n")
    }

    @Test("changes to different lines on both sides merge cleanly")
    func disjointChanges() {
        let result = merge("1\n2\n3\n4\n5\n", "one\n2\n3\n4\n5\n", "1\n2\n3\n4\nfive\n")
        #expect(result.text == "one\n2\n3\n4\nfive\n")
        #expect(result.conflictCount == 0)
    }

    @Test("the same change on both sides merges cleanly")
    func identicalChanges() {
        let result = merge("a\nb\n", "a\nB\nnew\n", "a\nB\nnew\n")
        #expect(result.text == "a\nB\nnew\n")
        #expect(result.conflictCount == 0)
    }

    @Test("different changes to the same lines keep both, ours first, between markers with device names")
    func overlappingChanges() {
        let result = merge("v1\n", "v1\nB online\n", "v1\nA offline\n")
        #expect(result.text == "v1\n<<<<<<< B\nB online\n=======\nA offline\n>>>>>>> A\n")
        #expect(result.conflictCount == 1)
    }

    @Test("a change overlapping a deletion is a conflict")
    func changeAgainstDelete() {
        let result = merge("a\nb\nc\n", "a\nc\n", "a\nbee\nc\n")
        #expect(result.text == "a\n<<<<<<< B\n=======\nbee\n>>>>>>> A\nc\n")
    }

    @Test("empty files merge to the empty file, and one side's content into an empty ancestor is taken")
    func emptyFiles() {
        #expect(merge("", "", "").text == "")
        #expect(merge("", "x\n", "").text == "x\n")
        #expect(merge("x\n", "", "x\n").text == "")
    }

    @Test("both sides writing into an empty ancestor conflict unless they wrote the same")
    func emptyAncestorBothSides() {
        #expect(merge("", "b\n", "a\n").text == "<<<<<<< B\nb\n=======\na\n>>>>>>> A\n")
        #expect(merge("", "same\n", "same\n").text == "same\n")
    }

    @Test("a last line without a newline is kept as is, and gets one before a marker line")
    func noTrailingNewline() {
        #expect(merge("a", "a\nb", "a").text == "a\nb")
        #expect(merge("a\nb", "x\nb", "a\nb").text == "x\nb")
        #expect(merge("a", "b", "c").text == "<<<<<<< B\nb\n=======\nc\n>>>>>>> A\n")
    }

    @Test("the merge depends only on its inputs")
    func deterministic() {
        let first = merge("1\n2\n3\n", "1\nx\n3\n", "1\ny\n3\nz\n")
        let second = merge("1\n2\n3\n", "1\nx\n3\n", "1\ny\n3\nz\n")
        #expect(first == second)
        #expect(first.text == "1\n<<<<<<< B\nx\n=======\ny\n>>>>>>> A\n3\nz\n")
    }

    // Found by scripts/fuzz (diff3 target, corpus/diff3/crlf-marker-join): Swift reads "\r\n" as
    // one Character, so a side ending in CR got its LF from the marker code and the separator
    // line joined it; CRLF text was one line.
    @Test("CRLF line ends split lines, and a side ending in CR keeps its marker lines apart")
    func carriageReturns() {
        let merged = merge("\u{7}", "\n\r", "")
        #expect(merged.text == "<<<<<<< B\n\n\r\n=======\n>>>>>>> A\n")
        #expect(Diff3.lines(of: merged.text).filter { $0 == "=======\n" }.count == 1)
        // Windows line ends merge line by line like Unix ones.
        #expect(merge("1\r\n2\r\n3\r\n", "x\r\n2\r\n3\r\n", "1\r\n2\r\ny\r\n").text == "x\r\n2\r\ny\r\n")
    }

    // Found by scripts/fuzz (diff3 target, corpus/diff3/last-line-joined): ours rewrote the last
    // line without a newline, theirs added a line after it; they ran together as "z=".
    @Test("a side's last line without a newline gets one when the merge puts lines after it")
    func lastLineBeforeOtherSidesLines() {
        #expect(merge("\n", "z", "\n=").text == "z\n=")
        // Both appended after "a": a conflict, as before; the block without a newline gets one.
        #expect(merge("a\n", "a\nb", "a\nc\n").text == "a\n<<<<<<< B\nb\n=======\nc\n>>>>>>> A\n")
    }
}
