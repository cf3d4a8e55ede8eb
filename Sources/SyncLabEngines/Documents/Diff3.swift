/// Line-based three-way merge (diff3), as the `merge` document policy uses it (SPEC §4.2).
///
/// Each side is diffed against the common ancestor (a longest-common-subsequence diff over whole
/// lines, newline included, so a last line without a newline differs from the same text with one).
/// Changes whose ancestor ranges overlap, or that start at the same ancestor line, form one region:
/// a region changed on one side takes that side; changed identically on both sides merges cleanly;
/// changed differently keeps both, ours first, between `<<<<<<< OURS`, `=======` and
/// `>>>>>>> THEIRS` lines. A line without a newline that the merge puts before other lines gets
/// one. The result depends only on the three texts and the two labels, so every device computes
/// the same merge.
public enum Diff3 {
    /// The merged text and how many conflicting regions it contains.
    public struct Result: Hashable, Sendable {
        public var text: String
        public var conflictCount: Int
    }

    /// Diffs larger than this many DP cells (after trimming the common prefix and suffix) are
    /// treated as one changed block: still a correct merge, only coarser. Bounds time and memory.
    public static let maximumCells = 4_000_000

    /// Merges `ours` and `theirs`, both derived from `base`.
    /// - Parameters:
    ///   - oursLabel: the name after `<<<<<<<` (the winner's author).
    ///   - theirsLabel: the name after `>>>>>>>`.
    /// - Complexity: O(n·m) in the lines that differ between the ancestor and each side.
    public static func merge(base: String, ours: String, theirs: String, oursLabel: String, theirsLabel: String) -> Result {
        let baseLines = lines(of: base), oursLines = lines(of: ours), theirsLines = lines(of: theirs)
        var hunks = changes(from: baseLines, to: oursLines, side: .ours) + changes(from: baseLines, to: theirsLines, side: .theirs)
        hunks.sort { ($0.baseStart, $0.baseEnd, $0.side.rawValue) < ($1.baseStart, $1.baseEnd, $1.side.rawValue) }

        var output: [Substring] = []
        var conflicts = 0
        var position = 0
        var index = 0
        while index < hunks.count {
            let groupStart = hunks[index].baseStart
            var groupEnd = hunks[index].baseEnd
            var group = [hunks[index]]
            index += 1
            while index < hunks.count, hunks[index].baseStart < groupEnd || hunks[index].baseStart == groupStart {
                groupEnd = max(groupEnd, hunks[index].baseEnd)
                group.append(hunks[index])
                index += 1
            }
            output.append(contentsOf: baseLines[position..<groupStart])
            let oursHunks = group.filter { $0.side == .ours }, theirsHunks = group.filter { $0.side == .theirs }
            let oursText = text(of: oursHunks, base: baseLines, from: groupStart, to: groupEnd)
            let theirsText = text(of: theirsHunks, base: baseLines, from: groupStart, to: groupEnd)
            if theirsHunks.isEmpty || oursText == theirsText {
                output.append(contentsOf: oursText)
            } else if oursHunks.isEmpty {
                output.append(contentsOf: theirsText)
            } else {
                conflicts += 1
                output.append(Substring("<<<<<<< \(oursLabel)\n"))
                output.append(contentsOf: terminated(oursText))
                output.append("=======\n")
                output.append(contentsOf: terminated(theirsText))
                output.append(Substring(">>>>>>> \(theirsLabel)\n"))
            }
            position = groupEnd
        }
        output.append(contentsOf: baseLines[position...])
        // A line without a newline was a side's last line; if the other side added lines after
        // it, it ends with one, or the two lines would run together and the side's line be lost.
        for index in output.indices.dropLast() where output[index].utf8.last != UInt8(ascii: "\n") {
            output[index] = Substring(String(output[index]) + "\n")
        }
        return Result(text: output.joined(), conflictCount: conflicts)
    }

    // MARK: Internals

    enum Side: Int { case ours = 0, theirs = 1 }

    /// One change of a side: ancestor lines `baseStart..<baseEnd` replaced by `lines`.
    struct Hunk {
        var baseStart: Int
        var baseEnd: Int
        var side: Side
        var lines: ArraySlice<Substring>
    }

    /// Lines with their newline kept; a final line without a newline is its own line.
    ///
    /// Split at every U+000A scalar, not at `Character`s: Swift reads `"\r\n"` as one
    /// character that is not `"\n"`, so a line ending in CR followed by a marker's LF (or any
    /// CRLF text) would not end there and a marker line would join the text before it.
    static func lines(of text: String) -> [Substring] {
        var result: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var cursor = utf8.startIndex
        while cursor < utf8.endIndex {
            let next = utf8.index(after: cursor)
            if utf8[cursor] == UInt8(ascii: "\n") {
                result.append(Substring(utf8[start..<next]))
                start = next
            }
            cursor = next
        }
        if start < utf8.endIndex { result.append(Substring(utf8[start...])) }
        return result
    }

    /// A side's text for ancestor lines `start..<end`: the ancestor with the side's hunks applied.
    static func text(of hunks: [Hunk], base: [Substring], from start: Int, to end: Int) -> [Substring] {
        var result: [Substring] = []
        var position = start
        for hunk in hunks {
            result.append(contentsOf: base[position..<hunk.baseStart])
            result.append(contentsOf: hunk.lines)
            position = hunk.baseEnd
        }
        result.append(contentsOf: base[position..<end])
        return result
    }

    /// The block with a newline after its last line, so a marker line never joins it.
    static func terminated(_ block: [Substring]) -> [Substring] {
        // By byte: `hasSuffix("\n")` is false for a line ending in CRLF (one `Character`).
        guard let last = block.last, last.utf8.last != UInt8(ascii: "\n") else { return block }
        var copy = block
        copy[copy.count - 1] = Substring(String(last) + "\n")
        return copy
    }

    /// The hunks turning `base` into `other`, in ancestor order.
    static func changes(from base: [Substring], to other: [Substring], side: Side) -> [Hunk] {
        var hunks: [Hunk] = []
        var baseIndex = 0, otherIndex = 0
        for (matchedBase, matchedOther) in matches(base, other) + [(base.count, other.count)] {
            if matchedBase > baseIndex || matchedOther > otherIndex {
                hunks.append(Hunk(baseStart: baseIndex, baseEnd: matchedBase, side: side, lines: other[otherIndex..<matchedOther]))
            }
            baseIndex = matchedBase + 1
            otherIndex = matchedOther + 1
        }
        return hunks
    }

    /// Index pairs of a longest common subsequence of `a` and `b`, in order.
    static func matches(_ a: [Substring], _ b: [Substring]) -> [(Int, Int)] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        var result: [(Int, Int)] = (0..<prefix).map { ($0, $0) }
        let aMiddle = a.count - prefix - suffix, bMiddle = b.count - prefix - suffix
        if aMiddle > 0, bMiddle > 0, aMiddle * bMiddle <= maximumCells {
            // lengths[i][j]: LCS length of a[prefix + i...] and b[prefix + j...] (middles only).
            let width = bMiddle + 1
            var lengths = [Int32](repeating: 0, count: (aMiddle + 1) * width)
            for i in stride(from: aMiddle - 1, through: 0, by: -1) {
                for j in stride(from: bMiddle - 1, through: 0, by: -1) {
                    lengths[i * width + j] = a[prefix + i] == b[prefix + j]
                        ? lengths[(i + 1) * width + j + 1] + 1
                        : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
                }
            }
            var i = 0, j = 0
            while i < aMiddle, j < bMiddle {
                if a[prefix + i] == b[prefix + j] {
                    result.append((prefix + i, prefix + j)); i += 1; j += 1
                } else if lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
                    i += 1
                } else {
                    j += 1
                }
            }
        }
        for offset in 0..<suffix { result.append((a.count - suffix + offset, b.count - suffix + offset)) }
        return result
    }
}
