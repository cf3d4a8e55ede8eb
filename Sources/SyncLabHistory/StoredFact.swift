import SyncLabKernel
import SyncLabProtocol

/// One fact as `FactLog` keeps it: 32 bytes of plain data, no strings, nothing to retain.
///
/// A `visible` fact (most of a run's facts) is held whole: its item as an id in the log's item
/// table (`FactLog.item(_:)`), its value inline when it is a plain number (a KVS integer, a
/// record's integer field, absent) and otherwise as an index into the log's values. A
/// notification is held whole too, in the fields a `visible` fact uses for its write (see
/// `init(run:notification:device:)`); every other fact is an index into the log's other facts.
/// Its batch and time are its run's (`FactLog.run(_:)`): the facts of one
/// batch happen at one instant, so they share one. `FactLog`'s subscript gives the
/// `FactRecord` back; the checker reads these directly.
///
/// Facts were `FactRecord`s (~140 bytes, two strings and an enum of strings each): recording
/// one copied it with a retain per string and left a release for the end, and 2.6 M of them
/// (`bench --check`, 1,000 devices) took 370 MB (issue 13, session 9). Then 48 bytes, with the
/// batch and the time in each; since session 11 those are one run id, and the write and the
/// device are their plain fields beside one byte of flags, not two optionals with their padding:
/// 32 bytes, 42 MB fewer to write (and to fault in) at 1,000 devices. Since session 12 a
/// notification is kept in its fact, not as a 24-byte entry of a table of its own: 870,000
/// fewer entries (21 MB) and one append fewer per notification at 1,000 devices.
public struct StoredFact: Sendable {
    /// The value (`form` says how); for a notification where its items start in the log's
    /// notification items; for another fact its index in the log's other facts.
    var payload: Int64
    /// Its batch and time, as an id in the log's runs (`FactLog.run(_:)`).
    public var run: Int32
    /// The item's id in the log's item table; -1 for a fact that is not `visible`.
    public var item: Int32
    /// `write`'s device index and sequence (when `flags` has `hasWrite`); a notification's item
    /// count and reason id.
    private var writeDevice: Int32
    private var writeSequence: UInt32
    /// `device`'s index (when `flags` has `hasDevice`).
    private var deviceIndex: Int32
    /// Why a `visible` fact's value changed (`.local` for other facts).
    public var cause: VisibilityCause
    /// What `payload` holds: one of the `Form` constants.
    var form: UInt8
    /// Which of `write`, its `derived` and `device` are there, and a notification's store: `Flags` bits.
    private var flags: UInt8

    /// The bits of `flags`.
    private enum Flags {
        static let hasWrite: UInt8 = 1
        static let derivedWrite: UInt8 = 2
        static let hasDevice: UInt8 = 4
        /// A notification's store (`storeBits`), in bits 3 and 4.
        static let storeShift: UInt8 = 3
    }

    /// The values of `form`.
    enum Form {
        /// Not a `visible` fact: `payload` indexes the log's other facts.
        static let other: UInt8 = 0
        /// `.absent`.
        static let absent: UInt8 = 1
        /// `.kvs(.integer(payload))`.
        static let kvsInteger: UInt8 = 2
        /// `.field(.int(payload))`.
        static let fieldInt: UInt8 = 3
        /// Any other value: `payload` indexes the log's values.
        static let kept: UInt8 = 4
        /// A notification: `payload` indexes the log's notifications.
        static let notification: UInt8 = 5
    }

    init(run: Int32, payload: Int64, item: Int32, write: WriteID?, device: DeviceID?, cause: VisibilityCause, form: UInt8) {
        self.payload = payload; self.run = run; self.item = item; self.cause = cause; self.form = form
        writeDevice = write?.device.index ?? 0
        writeSequence = write?.sequence ?? 0
        deviceIndex = device?.index ?? 0
        flags = (write == nil ? 0 : Flags.hasWrite) | (write?.derived == true ? Flags.derivedWrite : 0) | (device == nil ? 0 : Flags.hasDevice)
    }

    /// A notification reported by `device`: its items are the log's notification items from
    /// `firstItem` on (`payload`), their count and the reason's id where a `visible` fact keeps
    /// its write (no write: `flags` says so), its store in `flags`.
    init(run: Int32, notification: StoredNotification, device: DeviceID?) {
        self.init(run: run, payload: Int64(notification.firstItem), item: -1, write: nil, device: device, cause: .local, form: Form.notification)
        writeDevice = notification.itemCount
        writeSequence = UInt32(bitPattern: notification.reason)
        flags |= StoredFact.storeBits(notification.store) << Flags.storeShift
    }

    /// The notification this fact is (`isNotification`), as `init(run:notification:device:)` keeps it.
    var notification: StoredNotification {
        StoredNotification(firstItem: Int(payload), itemCount: writeDevice, reason: Int32(bitPattern: writeSequence),
                           store: StoredFact.store(bits: flags >> Flags.storeShift & 3))
    }

    /// A store in two bits (a switch: `Store.allCases` would build an array on each call).
    private static func storeBits(_ store: Store) -> UInt8 {
        switch store {
        case .kvs: return 0
        case .documents: return 1
        case .records: return 2
        }
    }

    /// The store `storeBits` gave these bits.
    private static func store(bits: UInt8) -> Store { bits == 0 ? .kvs : bits == 1 ? .documents : .records }

    /// The write behind a `visible` fact's value (nil for none, and for other facts).
    public var write: WriteID? {
        guard flags & Flags.hasWrite != 0 else { return nil }
        return WriteID(device: DeviceID(writeDevice), sequence: writeSequence, derived: flags & Flags.derivedWrite != 0)
    }

    /// The device whose engine reported it; nil for the cloud (`FactRecord.device`).
    public var device: DeviceID? { flags & Flags.hasDevice != 0 ? DeviceID(deviceIndex) : nil }

    /// A `visible` fact's value is `.absent`.
    public var showsAbsent: Bool { form == Form.absent }
    /// A `visible` fact's value is `.kvs(.integer(number))`.
    public var showsKVSInteger: Bool { form == Form.kvsInteger }
    /// A `visible` fact's value is `.field(.int(number))`.
    public var showsFieldInt: Bool { form == Form.fieldInt }
    /// The number of a `visible` fact that `showsKVSInteger` or `showsFieldInt`: what a reader
    /// can key on without building the `ItemValue` (`FactLog.value(of:)`).
    public var number: Int64 { payload }

    /// Is this an engine's or the cloud's `visible` observation?
    @inlinable public var isVisible: Bool { item >= 0 }
    /// Is this a notification (`FactLog.notification(of:)`)?
    public var isNotification: Bool { form == Form.notification }
}
