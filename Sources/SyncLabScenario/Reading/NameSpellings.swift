import SyncLabJSON

/// The spellings a scenario gives its names (KVS keys, document paths, zones, record names,
/// field names), to refuse one name written in two Unicode normalization forms.
///
/// Swift's `String` compares by canonical equivalence: `"café"` written with U+00E9 and with
/// `e` + U+0301 are equal, hash alike and are one dictionary key, while their UTF-8 bytes (what
/// the trace, `result.json` and every byte-wise sort see) differ. A file that used both ran as
/// two keys in the cloud and one on each device (a divergence no engine caused), and then could
/// not write its reports: `result.json` held two keys its own reader takes for one, a duplicate.
/// Apple's stores do not agree either (NSString keys compare code units; APFS file names ignore
/// normalization), so SyncLab asks for one spelling per name.
struct NameSpellings {
    /// What a name names; names of different kinds never clash.
    enum Kind: String {
        case key = "key"
        case path = "document path"
        case zone = "zone"
        case record = "record name"
        case field = "field name"
    }

    /// A name as Swift compares it: canonically equivalent spellings are one entry.
    private struct Name: Hashable {
        var kind: Kind
        var text: String
    }

    /// Every name that could have another spelling, as first written (the dictionary keeps the
    /// key it was given first: that is the first spelling), with where it was written. A
    /// position, not the JSON path: a file of a million `Kéy${i}` keys keeps 16 bytes each, not
    /// a path string each (about 115 MB at a million).
    private var first: [Name: SourcePosition?] = [:]

    /// Notes `name` (written at `position`); returns the earlier spelling of the same name and
    /// where it was written when that spelling differs in code points, nil otherwise.
    /// - Complexity: O(name length); only names that could have another spelling are kept.
    mutating func note(_ name: String, kind: Kind, at position: SourcePosition?) -> (spelling: String, position: SourcePosition?)? {
        guard Self.mayHaveOtherSpellings(name) else { return nil }
        let key = Name(kind: kind, text: name)
        guard let index = first.index(forKey: key) else {
            first[key] = position
            return nil
        }
        let earlier = first[index]
        return earlier.key.text.unicodeScalars.elementsEqual(name.unicodeScalars) ? nil : (earlier.key.text, earlier.value)
    }

    /// Whether another string can be canonically equivalent to `name`: any name with a
    /// non-ASCII scalar, and the ASCII names holding one of the three characters a non-ASCII
    /// scalar decomposes to alone (U+212A KELVIN SIGN is `K`, U+1FEF is `` ` ``, U+037E is `;`).
    /// Every other ASCII name has one spelling, so the usual file keeps nothing.
    static func mayHaveOtherSpellings(_ name: String) -> Bool {
        name.utf8.contains { $0 >= 0x80 || $0 == UInt8(ascii: "K") || $0 == UInt8(ascii: "`") || $0 == UInt8(ascii: ";") }
    }

    /// The first character the two spellings write differently, as code points of each
    /// (`U+0065 U+0301` and `U+00E9`): the two look alike on screen.
    static func difference(_ name: String, _ other: String) -> (String, String) {
        for (mine, theirs) in zip(name, other) where !mine.unicodeScalars.elementsEqual(theirs.unicodeScalars) {
            return (codePoints(mine.unicodeScalars), codePoints(theirs.unicodeScalars))
        }
        return (codePoints(name.unicodeScalars), codePoints(other.unicodeScalars))
    }

    private static func codePoints<Scalars: Sequence>(_ scalars: Scalars) -> String where Scalars.Element == Unicode.Scalar {
        scalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }.joined(separator: " ")
    }
}
