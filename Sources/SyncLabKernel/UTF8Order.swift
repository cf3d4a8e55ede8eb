/// Strings in UTF-8 byte order (as `ItemKey` orders names), compared over their contiguous bytes.
///
/// `a.utf8.lexicographicallyPrecedes(b.utf8)` gives the same order, but walks both views through
/// the generic `Sequence` iterator: ~200 instructions for two short keys, and the cloud sorts
/// every fetch's changes and every device checks their order (issue 13, session 9).
public enum UTF8Order {
    /// True when `lhs` comes before `rhs` in UTF-8 byte order (a prefix first).
    @inlinable public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                let shared = Swift.min(left.count, right.count)
                var offset = 0
                while offset < shared {
                    if left[offset] != right[offset] { return left[offset] < right[offset] }
                    offset += 1
                }
                return left.count < right.count
            }
        }
        // Only a string without contiguous UTF-8 (bridged) takes the generic walk.
        if let compared = compared ?? nil { return compared }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
