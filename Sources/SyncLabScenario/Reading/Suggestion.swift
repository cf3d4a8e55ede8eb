/// "Did you mean …?" for unknown keys, ops and names.
enum Suggestion {
    /// The closest of `candidates` to `word`: edit distance ≤ 2, or one a prefix of the other
    /// (case-insensitively). Ties go to the earlier candidate, so messages are stable.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let lowered = Array(word.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let target = Array(candidate.lowercased())
            var distance = editDistance(lowered, target)
            if distance > 2 {
                let isPrefix = !lowered.isEmpty && (target.starts(with: lowered) || lowered.starts(with: target)) && min(lowered.count, target.count) >= 2
                guard isPrefix else { continue }
                distance = 3
            }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.name
    }

    /// `; did you mean 'X'?` or the empty string.
    static func hint(for word: String, in candidates: [String]) -> String {
        guard let match = closest(to: word, in: candidates) else { return "" }
        return "; did you mean '\(match)'?"
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
