internal import SyncLabProtocol
internal import SyncLabEngines
internal import SyncLabKernel

/// The sync engine as a records app holds it, shaped after `CKSyncEngine` (SPEC §9): its state
/// (pending changes). The platform does the rest (sending, fetching, retries, tokens), and calls
/// the app's `handleEvent` and `nextRecordZoneChangeBatch` with this handle.
public struct SyncEngine {
    /// `CKSyncEngine.State`: the pending changes. Its serialization comes to the app in
    /// `.stateUpdate` events; what the app saves of it is all that survives a crash.
    public struct State {
        var data: SyncEngineStateData
        /// The state as the call into the app began, kept at the app's first change in the call
        /// (nil: none so far), so a call that changes nothing costs no copy of the state.
        var original: SyncEngineStateData?

        /// Keeps the state as it was before the first change.
        mutating func willChange() { if original == nil { original = data } }

        /// `CKSyncEngine.State.Serialization`: opaque; save it and hand it back at launch.
        public struct Serialization: Hashable, Sendable {
            /// The state, in one immutable box (session 13): the app is told of every change of
            /// the state (two `stateUpdate`s a fetch on every device) and keeps each
            /// serialization, so one was copied and destroyed field by field three times (the
            /// event, the app's copy, the one it replaced); boxed, a copy is one retain.
            final class StateBox: Sendable {
                let data: SyncEngineStateData
                init(_ data: SyncEngineStateData) { self.data = data }
            }
            private let box: StateBox

            var data: SyncEngineStateData { box.data }

            init(data: SyncEngineStateData) { box = StateBox(data) }

            /// The same state.
            public static func == (lhs: Serialization, rhs: Serialization) -> Bool { lhs.box === rhs.box || lhs.data == rhs.data }

            /// Hashes what `==` compares.
            public func hash(into hasher: inout Hasher) { hasher.combine(data) }
        }

        /// Record changes waiting to be sent, in the order added.
        public var pendingRecordZoneChanges: [PendingRecordZoneChange] {
            data.pendingRecordChanges.map { change in
                switch change {
                case .save(let id): return .saveRecord(SyncRecord.ID(id))
                case .delete(let id): return .deleteRecord(SyncRecord.ID(id))
                }
            }
        }

        /// Zone changes waiting to be sent, in the order added.
        public var pendingDatabaseChanges: [PendingDatabaseChange] {
            data.pendingZoneChanges.map { change in
                switch change {
                case .save(let zone): return .saveZone(zone)
                case .delete(let zone): return .deleteZone(zone)
                }
            }
        }

        /// Adds record changes to send (one already pending stays once, and is sent again if it
        /// was on the wire); a save replaces a pending delete of the same record and vice versa.
        public mutating func add(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) { willChange(); data.add(changes.map(\.data)) }
        /// Removes record changes from the pending list.
        public mutating func remove(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) { willChange(); data.remove(changes.map(\.data)) }
        /// Adds zone saves or deletes to send.
        public mutating func add(pendingDatabaseChanges changes: [PendingDatabaseChange]) { willChange(); data.add(changes.map(\.data)) }
        /// Removes zone changes from the pending list.
        public mutating func remove(pendingDatabaseChanges changes: [PendingDatabaseChange]) { willChange(); data.remove(changes.map(\.data)) }
    }

    /// `CKSyncEngine.PendingRecordZoneChange`.
    public enum PendingRecordZoneChange: Hashable, Sendable {
        /// Save this record: the app gives it in `nextRecordZoneChangeBatch`.
        case saveRecord(SyncRecord.ID)
        /// Delete this record (unconditionally, as CloudKit deletes).
        case deleteRecord(SyncRecord.ID)

        var data: PendingRecordChangeData {
            switch self {
            case .saveRecord(let id): return .save(id.protocolID)
            case .deleteRecord(let id): return .delete(id.protocolID)
            }
        }
    }

    /// `CKSyncEngine.PendingDatabaseChange`: zones by name (private database).
    public enum PendingDatabaseChange: Hashable, Sendable {
        /// Create this zone (a record zone of the private database).
        case saveZone(String)
        /// Delete this zone and every record in it.
        case deleteZone(String)

        var data: PendingZoneChangeData {
            switch self {
            case .saveZone(let zone): return .save(zone)
            case .deleteZone(let zone): return .delete(zone)
            }
        }
    }

    /// `CKSyncEngine.SendChangesContext`: the pending changes this batch is for (its scope).
    ///
    /// The engine offers at most `limits.records.batch` changes. A batch marked `atomicByZone`
    /// goes up as one request per zone whatever that limit (the cloud refuses an oversized atomic
    /// request whole, every change failing with `limitExceeded`), and only your app knows which
    /// pending changes make one user action: when an action has more changes pending than were
    /// offered, put all of them in its atomic batch, or the rest goes up in a later request and
    /// another device can see half of the action.
    public struct SendChangesContext: Sendable {
        /// The changes the engine can send in this batch, in pending order.
        public var pendingChanges: [PendingRecordZoneChange]
    }

    /// `CKSyncEngine.RecordZoneChangeBatch`: the records to save and the ids to delete.
    public struct RecordZoneChangeBatch: Sendable {
        /// The records to save, each with the fields it should have in the cloud.
        public var recordsToSave: [SyncRecord]
        /// The records to delete.
        public var recordIDsToDelete: [SyncRecord.ID]
        /// `atomicByZone`: the changes of each custom zone are saved all or nothing (a failure of
        /// one fails the others with `batchRequestFailed`; those stay pending). The engine then
        /// sends one zone per request.
        public var atomicByZone: Bool

        /// A batch of exactly these.
        public init(recordsToSave: [SyncRecord], recordIDsToDelete: [SyncRecord.ID], atomicByZone: Bool = false) {
            self.recordsToSave = recordsToSave; self.recordIDsToDelete = recordIDsToDelete; self.atomicByZone = atomicByZone
        }

        /// The batch for `pendingChanges`, asking `recordProvider` for each record to save (nil:
        /// the app has no such record; the change is skipped), as Apple's initialiser does.
        public init(pendingChanges: [PendingRecordZoneChange], atomicByZone: Bool = false, recordProvider: (SyncRecord.ID) -> SyncRecord?) {
            var saves: [SyncRecord] = [], deletes: [SyncRecord.ID] = []
            for change in pendingChanges {
                switch change {
                case .saveRecord(let id): if let record = recordProvider(id) { saves.append(record) }
                case .deleteRecord(let id): deletes.append(id)
                }
            }
            self.init(recordsToSave: saves, recordIDsToDelete: deletes, atomicByZone: atomicByZone)
        }
    }

    /// `syncEngine.state`.
    public var state: State {
        get { lent }
        set {
            // Replaced whole (by a copy the app kept): compared with the state the call began with.
            let start = lent.original ?? lent.data
            lent = newValue
            lent.original = start
        }
        // In place: the app's changes neither copy the state nor lose track of its first change.
        _modify { yield &lent }
    }
    /// The state lent for this call (`lending`).
    var lent: State

    /// The device's clock now, what `Date()` gives a real app: the device's local time since the
    /// run began, skewed, drifting and jumping as the scenario sets that device's clock (SPEC
    /// §3.2), so two devices' times may disagree with true order. Stamp the user's edits with it
    /// (a user-side modification date, as Apple's CKSyncEngine sample does) and compare them
    /// with `SyncRecord.modificationDate(forKey:)`.
    public internal(set) var now: Duration

    /// A handle holding an empty state, to be lent states (`lend`) call after call: the adapter
    /// keeps one, so a call into the app makes and frees no handle (most calls change nothing).
    static func idle() -> SyncEngine {
        SyncEngine(lent: State(data: SyncEngineStateData(account: nil)), now: .zero)
    }

    /// A handle lent `data` (`idle()` then `lend`), for a single call.
    static func lending(_ data: inout SyncEngineStateData, now: LocalInstant) -> SyncEngine {
        var engine = idle()
        engine.lend(&data, now: now)
        return engine
    }

    /// Holds `data`, moved in (not copied: a copy would make the app's first change of the
    /// pending changes copy them), in place of what the handle held; `giveBack` moves it out
    /// again. `now` is the device's clock.
    mutating func lend(_ data: inout SyncEngineStateData, now: LocalInstant) {
        self.now = .microseconds(now.microseconds)
        swap(&lent.data, &data)
    }

    /// Moves the state back into `data` (after `lend`), with `changedByApp` set when the app
    /// changed it (pending changes added again aside: the platform reads those apart), and
    /// forgets the state the call began with (held, it would make the platform's next change
    /// copy what it shares with it).
    mutating func giveBack(_ data: inout SyncEngineStateData) {
        if var original = lent.original {
            original.readded = lent.data.readded
            lent.data.changedByApp = original != lent.data
            lent.original = nil
        }
        swap(&lent.data, &data)
    }
}
