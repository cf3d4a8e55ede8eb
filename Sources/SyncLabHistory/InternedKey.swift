import SyncLabProtocol

/// A key `Interner` tells apart by its bytes: a hash of them, and byte-for-byte equality (not
/// `==`, which is true of two spellings of one text).
protocol InternedKey: Sendable {
    /// FNV-1a over the key's bytes: equal bytes, equal hash.
    var byteHash: UInt64 { get }
    /// The same bytes as `other`.
    func hasSameBytes(as other: Self) -> Bool
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
