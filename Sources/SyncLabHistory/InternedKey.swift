import SyncLabProtocol

/// A key `Interner` tells apart by its bytes: a hash of them, and byte-for-byte equality (not
/// `==`, which is true of two spellings of one text).
protocol InternedKey: Sendable {
    /// FNV-1a over the key's bytes: equal bytes, equal hash.
    var byteHash: UInt64 { get }
    /// The same bytes as `other`.
    func hasSameBytes(as other: Self) -> Bool
    /// A hash of the key's representation (its strings' 16 bytes each, not the bytes they
    /// hold): cheap, equal for keys that `hasSameRepresentation`, its top bits mixed from all.
    var representationHash: UInt64 { get }
    /// The same representation as `other`, and so the same bytes (`FNV.sameBytes`); false does
    /// not mean other bytes.
    func hasSameRepresentation(as other: Self) -> Bool
}

/// A notification's item name or reason.
extension String: InternedKey {
    var byteHash: UInt64 { FNV.mix(self, into: FNV.basis) }
    func hasSameBytes(as other: String) -> Bool { FNV.sameBytes(self, other) }

    var representationHash: UInt64 {
        let (low, high) = FNV.representation(self)
        return low &* 0x9E37_79B9_7F4A_7C15 ^ high &* 0xC2B2_AE3D_27D4_EB4F
    }

    func hasSameRepresentation(as other: String) -> Bool { FNV.sameRepresentation(self, other) }
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

    var representationHash: UInt64 {
        let (name0, name1) = FNV.representation(name), (field0, field1) = FNV.representation(field)
        let place = UInt64(UInt32(bitPattern: account.index)) << 2 | (store == .kvs ? 0 : store == .documents ? 1 : 2)
        return name0 &* 0x9E37_79B9_7F4A_7C15 ^ name1 &* 0xC2B2_AE3D_27D4_EB4F ^ field0 &* 0x1656_67B1_9E37_79F9
            ^ field1 &* 0x27D4_EB2F_1656_67C5 ^ place &* 0x94D0_49BB_1331_11EB
    }

    func hasSameRepresentation(as other: ItemKey) -> Bool {
        account == other.account && store == other.store && FNV.sameRepresentation(name, other.name) && FNV.sameRepresentation(field, other.field)
    }
}
