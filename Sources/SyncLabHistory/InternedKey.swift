import SyncLabProtocol

/// A key `Interner` tells apart by its bytes: a hash of them, and byte-for-byte equality (not
/// `==`, which is true of two spellings of one text).
protocol InternedKey: Sendable {
    /// FNV-1a over the key's bytes: equal bytes, equal hash.
    var byteHash: UInt64 { get }
    /// The same bytes as `other`.
    func hasSameBytes(as other: Self) -> Bool
}

/// FNV-1a's offset basis and one step.
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
        let inPlace = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in left.elementsEqual(right) }
        }
        return (inPlace ?? nil) ?? lhs.utf8.elementsEqual(rhs.utf8)
    }
}

/// A notification's item name or reason.
extension String: InternedKey {
    var byteHash: UInt64 { FNV.mix(self, into: FNV.basis) }
    func hasSameBytes(as other: String) -> Bool { FNV.sameBytes(self, other) }
}

/// A `visible` fact's item.
extension ItemKey: InternedKey {
    /// Over the account, the store, and the name's and the field's bytes.
    var byteHash: UInt64 {
        var hash = FNV.step(FNV.basis, UInt64(UInt32(bitPattern: account.index)))
        hash = FNV.step(hash, store == .kvs ? 0 : store == .documents ? 1 : 2)
        hash = FNV.mix(name, into: hash)
        // A separator no UTF-8 byte equals, so ("ab", "") and ("a", "b") differ.
        hash = FNV.step(hash, 0x1_00)
        return FNV.mix(field, into: hash)
    }

    /// Equal account and store, and the same bytes in the name and the field.
    func hasSameBytes(as other: ItemKey) -> Bool {
        account == other.account && store == other.store && FNV.sameBytes(name, other.name) && FNV.sameBytes(field, other.field)
    }
}
