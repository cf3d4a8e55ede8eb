// libFuzzer target: the three-way merge of the `merge` document policy (issue 14).
// Input: base, ours and theirs separated by NUL bytes. Beyond "no crash", it checks:
// markers balanced (one `<<<<<<<`, `=======`, `>>>>>>>` per conflict, when no input already has
// marker lines), the trivial merges exact, and both sides kept (every line a side added is in
// the result).
@testable import SyncLabEngines

/// `precondition` prints no message in an optimized build; a finding should say what broke.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDiff3(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    let texts = (0..<3).map { $0 < parts.count ? String(decoding: parts[$0], as: UTF8.self) : "" }
    let base = texts[0], ours = texts[1], theirs = texts[2]
    let merged = Diff3.merge(base: base, ours: ours, theirs: theirs, oursLabel: "OURS", theirsLabel: "THEIRS")

    if ours == base { check(merged.text == theirs && merged.conflictCount == 0, "ours unchanged but the merge is not theirs") }
    if theirs == base { check(merged.text == ours && merged.conflictCount == 0, "theirs unchanged but the merge is not ours") }
    if ours == theirs { check(merged.text == ours && merged.conflictCount == 0, "both sides equal but the merge differs") }

    let lines = Diff3.lines(of: merged.text).map(String.init)
    let markerLike = texts.contains { text in
        Diff3.lines(of: text).contains { $0.hasPrefix("<<<<<<<") || $0.hasPrefix("=======") || $0.hasPrefix(">>>>>>>") }
    }
    if !markerLike {
        let opens = lines.filter { $0 == "<<<<<<< OURS\n" }.count
        let separators = lines.filter { $0 == "=======\n" }.count
        let closes = lines.filter { $0 == ">>>>>>> THEIRS\n" }.count
        check(opens == merged.conflictCount && separators == opens && closes == opens,
                     "markers unbalanced: \(opens) \(separators) \(closes) for \(merged.conflictCount) conflicts")
    }
    // A line a side added (absent from the ancestor) survives. Compared without the final
    // newline: a conflict block gets one so its marker line cannot join it.
    func key(_ line: Substring) -> String { line.utf8.last == UInt8(ascii: "\n") ? String(Substring(line.utf8.dropLast())) : String(line) }
    let baseLines = Set(Diff3.lines(of: base).map(key))
    let resultLines = Set(Diff3.lines(of: merged.text).map(key))
    for side in [ours, theirs] {
        for line in Diff3.lines(of: side).map(key) where !baseLines.contains(line) {
            check(resultLines.contains(line), "an added line was dropped: \(line.debugDescription)")
        }
    }
    return 0
}
