import SyncLabProtocol

/// One note for a device's KVS app memory (what its own writes are built on): `write` read by the
/// app as the value of `key`, or made on the device to it (`madeHere`).
///
/// 24 bytes, not the 32 of a `WriteID` and a flag beside the key (its 9 bytes and the flag round
/// up to 16): a reading app's log of these is most of its memory, written at every read. The two
/// flags ride in the top bits of the write's device index, which is far below 2^30 (a device
/// takes kilobytes).
public struct KVSAppNote: Sendable {
    @usableFromInline package var key: String
    /// The write's device index, `derived` in bit 31, `madeHere` in bit 30.
    @usableFromInline var deviceAndFlags: UInt32
    @usableFromInline var sequence: UInt32

    @inlinable static var derivedBit: UInt32 { 1 << 31 }
    @inlinable static var madeHereBit: UInt32 { 1 << 30 }

    // Inlinable, as the rest: made by the app's store (another module) at every read, a call
    // each was about 2% of what hosting an observer cost over the built-in reader.
    @inlinable package init(key: String, write: WriteID, madeHere: Bool) {
        self.key = key
        deviceAndFlags = UInt32(truncatingIfNeeded: write.device.index)
            | (write.derived ? Self.derivedBit : 0) | (madeHere ? Self.madeHereBit : 0)
        sequence = write.sequence
    }

    /// Whether `other` notes the same write with the same flag.
    @inlinable package func hasSameWrite(as other: KVSAppNote) -> Bool {
        deviceAndFlags == other.deviceAndFlags && sequence == other.sequence
    }

    @inlinable package var madeHere: Bool { deviceAndFlags & Self.madeHereBit != 0 }
    @inlinable package var write: WriteID {
        WriteID(device: DeviceID(Int32(truncatingIfNeeded: deviceAndFlags & ~(Self.derivedBit | Self.madeHereBit))),
                sequence: sequence, derived: deviceAndFlags & Self.derivedBit != 0)
    }
}
