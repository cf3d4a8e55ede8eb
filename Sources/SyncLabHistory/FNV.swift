/// FNV-1a over a name's UTF-8 bytes, and byte-for-byte comparison of names: what `Interner` keys on.
enum FNV {
    static let basis: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always) static func step(_ hash: UInt64, _ byte: UInt64) -> UInt64 { (hash ^ byte) &* 0x0000_0100_0000_01b3 }

    /// `hash` with `text`'s UTF-8 bytes mixed in, read in place (a buffer, not the view's iterator).
    static func mix(_ text: String, into hash: UInt64) -> UInt64 {
        func mixBytes<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
            var hash = hash
            for byte in bytes { hash = step(hash, UInt64(byte)) }
            return hash
        }
        return text.utf8.withContiguousStorageIfAvailable { mixBytes($0) } ?? mixBytes(text.utf8)
    }

    /// The same UTF-8 bytes (not `==`, which is true of two spellings of one text).
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        // The same 16 bytes of representation are the same text: a short string's bytes are
        // inline, a long one's are one storage object (kept alive, and so unchanged, by both
        // values) with one count. The usual case when the log meets a name again (an engine's
        // short key), two loads each instead of the byte-by-byte walk below, which was half of
        // the item lookup's samples (issue 13, session 11). Different representations may still
        // hold the same bytes: the walk decides those.
        if sameRepresentation(lhs, rhs) { return true }
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        let inPlace = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in left.elementsEqual(right) }
        }
        return (inPlace ?? nil) ?? lhs.utf8.elementsEqual(rhs.utf8)
    }

    /// The 16 bytes of a string's representation, as two words (zeros where a `String` is not
    /// 16 bytes, which no supported platform has: then nothing has the same representation).
    @inline(__always) static func representation(_ text: String) -> (UInt64, UInt64) {
        guard MemoryLayout<String>.size == 16 else { return (0, 0) }
        return withUnsafeBytes(of: text) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
    }

    /// The same 16 bytes of representation: the same text (see `sameBytes`); false does not
    /// mean other text.
    @inline(__always) static func sameRepresentation(_ lhs: String, _ rhs: String) -> Bool {
        guard MemoryLayout<String>.size == 16 else { return false }
        return representation(lhs) == representation(rhs)
    }
}
