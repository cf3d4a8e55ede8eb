import SyncLabKernel
import SyncLabProtocol

/// One fact as `FactLog` keeps it: 48 bytes of plain data, no strings, nothing to retain.
///
/// A `visible` fact (most of a run's facts) is held whole: its item as an id in the log's item
/// table (`FactLog.item(_:)`), its value inline when it is a plain number (a KVS integer, a
/// record's integer field, absent) and otherwise as an index into the log's values. A
/// notification is an index into the log's notifications, every other fact an index into the
/// log's other facts. `FactLog`'s subscript gives the
/// `FactRecord` back; the checker reads these directly.
///
/// Facts were `FactRecord`s (~140 bytes, two strings and an enum of strings each): recording
/// one copied it with a retain per string and left a release for the end, and 2.6 M of them
/// (`bench --check`, 1,000 devices) took 370 MB (issue 13, session 9).
public struct StoredFact: Sendable {
    /// The step it came from (`FactRecord.batch`).
    public var batch: Int
    /// True time (`FactRecord.at`).
    public var at: SimInstant
    /// The value (`form` says how) or, for a fact that is not `visible`, its index in the log's other facts.
    var payload: Int64
    /// The item's id in the log's item table; -1 for a fact that is not `visible`.
    public var item: Int32
    /// The write behind a `visible` fact's value (nil for none, and for other facts).
    public var write: WriteID?
    /// The device whose engine reported it; nil for the cloud (`FactRecord.device`).
    public var device: DeviceID?
    /// Why a `visible` fact's value changed (`.local` for other facts).
    public var cause: VisibilityCause
    /// What `payload` holds: one of the `Form` constants.
    var form: UInt8

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

    /// Is this an engine's or the cloud's `visible` observation?
    @inlinable public var isVisible: Bool { item >= 0 }
    /// Is this a notification (`FactLog.notification(of:)`)?
    public var isNotification: Bool { form == Form.notification }
}
