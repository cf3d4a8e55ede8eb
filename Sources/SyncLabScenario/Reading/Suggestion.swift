/// "Did you mean …?" for unknown keys, ops and names.
enum Suggestion {
    /// The closest of `candidates` to `word`: edit distance ≤ 2, or one a prefix of the other
    /// (case-insensitively). Between equal distances a candidate the word begins wins; further
    /// ties go to the earlier candidate, so messages are stable.
    ///
    /// Bounded work: names longer than `maximumLength` get no suggestion, and the edit distance
    /// is computed only for candidates within 2 characters of the word's length (any other is
    /// more than 2 edits away), so a hostile file of long unknown names against many known ones
    /// costs O(candidates × maximumLength²) per name at worst.
    static func closest(to word: String, in candidates: [String]) -> String? {
        guard word.utf8.count <= maximumLength * 4 else { return nil }
        let lowered = Array(word.lowercased())
        guard lowered.count <= maximumLength else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate.utf8.count <= maximumLength * 4 {
            let target = Array(candidate.lowercased())
            guard target.count <= maximumLength else { continue }
            var distance = abs(lowered.count - target.count) > 2 ? 3 : editDistance(lowered, target)
            if distance > 2 {
                let isPrefix = !lowered.isEmpty && (target.starts(with: lowered) || lowered.starts(with: target)) && min(lowered.count, target.count) >= 2
                guard isPrefix else { continue }
                distance = 3
            }
            // Between equally close names, one the word begins (`val` → `value`, not `at`).
            let rank = distance * 2 + (!lowered.isEmpty && target.starts(with: lowered) ? 0 : 1)
            if best == nil || rank < best!.distance { best = (candidate, rank) }
        }
        return best?.name
    }

    /// The longest name (in characters) a suggestion is looked for: far beyond any key, op or
    /// id a person types, and it keeps "did you mean" cheap for hostile names.
    static let maximumLength = 64

    /// `names` for a message, comma-separated: at most `maximumListed`, then "… and N more", so
    /// a file with 20,000 devices does not repeat all of them in every error.
    static func list(_ names: [String]) -> String {
        guard names.count > maximumListed else { return names.joined(separator: ", ") }
        return names.prefix(maximumListed).joined(separator: ", ") + ", … and \(names.count - maximumListed) more"
    }

    static let maximumListed = 20

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
