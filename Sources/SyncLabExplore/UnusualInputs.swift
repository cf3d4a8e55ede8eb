import SyncLabJSON

/// The inputs real users' scenarios hold and plain traffic never does: device names with `/`,
/// spaces, apostrophes or letters outside ASCII; document paths in folders or without an
/// extension; synthetic document content (`{"$size": …}`); empty appends and lines without
/// their newline; KVS values of every plist type; record fields of every kind, and fields
/// removed with `null`.
///
/// Each draw comes from its own named sub-stream (`names`, `paths`, `content`, `values`,
/// `fields`), taken after the plain traffic is drawn, so a seed's times, devices and ops stay
/// what they were and only the written values change.
enum UnusualInputs {
    /// Device names people give their devices. None is `*` or `all` (they mean something in
    /// steps), and no two are one name in two Unicode spellings.
    static let deviceNames = ["Work/iPad", "Ann's iPhone", "Mac mini (2)", "Zoë", "a/b", "iPad Pro 12.9\"", "Büro-Mac", "📱"]

    /// Document paths beside `note0.txt`: a folder, a space, no extension, two dots, a
    /// hidden file, a letter outside ASCII.
    static let documentPaths = ["notes/todo.txt", "a b.md", "README", "archive.tar.gz", ".hidden", "Ünïcode/Straße.txt"]

    /// Per device, its letter or (when the seed draws unusual names) sometimes a name from
    /// `deviceNames`, each name at most once.
    static func deviceIDs(letters: [String], _ draw: inout Draw) -> [String] {
        guard draw.chance(0.3) else { return letters }
        var unused = deviceNames
        return letters.map { letter in
            guard draw.chance(0.5), !unused.isEmpty else { return letter }
            return unused.remove(at: draw.int(0...(unused.count - 1)))
        }
    }

    /// The seed's document paths: the plain ones, or (sometimes) some replaced by unusual ones.
    static func documentPaths(_ plain: [String], _ draw: inout Draw) -> [String] {
        guard draw.chance(0.3) else { return plain }
        var unused = documentPaths
        return plain.map { path in
            guard draw.chance(0.7) else { return path }
            return unused.remove(at: draw.int(0...(unused.count - 1)))
        }
    }

    /// A `doc.save` content: the plain text, or synthetic bytes of a size around the storage
    /// limits the quota fault draws (200–1,500 bytes), empty, or large; or text without its
    /// last newline.
    static func saveContent(_ plain: String, _ draw: inout Draw) -> JSON {
        let roll = draw.int(0...99)
        if roll < 15 { return .object([("$size", .string(draw.pick(["0B", "1B", "300B", "1KB", "2KB", "64KB", "3MB"])))]) }
        if roll < 20 { return .string("") }
        if roll < 25 { return .string(String(plain.dropLast())) }
        return .string(plain)
    }

    /// A `doc.append` text: the plain line, empty, a line without its newline, or a line with
    /// letters outside ASCII.
    static func appendText(_ plain: String, _ draw: inout Draw) -> String {
        let roll = draw.int(0...99)
        if roll < 12 { return "" }
        if roll < 20 { return String(plain.dropLast()) }
        if roll < 25 { return "é " + plain }
        return plain
    }

    /// A `kvs.set` value: the plain one, or a double, bool, data, date, array or dictionary.
    static func kvsValue(_ plain: JSON, _ tag: String, _ draw: inout Draw) -> JSON {
        guard draw.chance(0.35) else { return plain }
        switch draw.int(0...6) {
        case 0: return .double(Double(draw.int(-99...99)) / 4)
        case 1: return .bool(draw.chance(0.5))
        case 2: return .object([("$data", .string(draw.pick(["", "AA==", "3q2+7w==", "aGVsbG8gd29ybGQ="])))])
        case 3: return .object([("$date", .string("2026-0\(draw.int(1...9))-1\(draw.int(0...9))T12:00:00Z"))])
        case 4: return .array(draw.chance(0.2) ? [] : [.string(tag), .int(Int64(draw.int(0...9)))])
        case 5: return .object(draw.chance(0.2) ? [] : [("by", .string(tag)), ("n", .int(Int64(draw.int(0...9))))])
        default: return .string("")
        }
    }

    /// `kvs.increment`'s `by`: mostly 1, sometimes 0, negative or large.
    static func incrementBy(_ draw: inout Draw) -> Int64 {
        guard draw.chance(0.3) else { return 1 }
        return draw.pick([0, -1, -7, 5, 1_000_000])
    }

    /// A record's fields with, sometimes, one field of another kind added (double, bytes,
    /// date, reference, asset, location, list) or one field removed (`null`).
    static func recordFields(_ plain: [(String, JSON)], _ names: [String], _ draw: inout Draw) -> [(String, JSON)] {
        var fields = plain
        if draw.chance(0.3) {
            // One name per kind, so no field changes kind between saves.
            let kind = draw.int(0...6)
            let value: JSON
            switch kind {
            case 0: value = .double(Double(draw.int(-40...40)) / 8)
            case 1: value = .object([("$data", .string(draw.pick(["AA==", "3q2+7w=="])))])
            case 2: value = .object([("$date", .string("2026-11-2\(draw.int(0...9))T08:00:00Z"))])
            case 3: value = .object([("$ref", .string(draw.pick(names))), ("action", .string(draw.pick(["none", "deleteSelf"])))])
            case 4: value = .object([("$asset", .string(draw.pick(["10B", "2KB", "1MB"])))])
            case 5: value = .object([("lat", .double(Double(draw.int(-90...90)))), ("lon", .double(Double(draw.int(-180...180))))])
            default: value = .array(draw.chance(0.25) ? [] : [.string("x"), .string("y")])
            }
            fields.append((["score", "blob", "when", "parent", "photo", "place", "tags"][kind], value))
        }
        let absent = ["title", "body", "n"].filter { name in !fields.contains { $0.0 == name } }
        if draw.chance(0.15), !absent.isEmpty {
            fields.append((draw.pick(absent), .null))
        }
        return fields
    }
}
