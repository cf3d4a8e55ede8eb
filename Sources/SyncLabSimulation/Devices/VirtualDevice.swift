import SyncLabKernel
import SyncLabProtocol
import SyncLabEngines

/// One simulated device: its clock, link, lifecycle and the three client engines.
///
/// Storage model: each engine's `durable` value is the device's disk. A crash drops the engine
/// (its volatile memory) and keeps `saved*` (the disk); `device.restart` rebuilds each engine from
/// it. `app.delete` drops both.
struct VirtualDevice {
    // Stored properties lie in the order declared: what every delivery reads or writes comes
    // first (its flags, clock, randomness, link, KVS app and engine), on a few cache lines; the
    // other engines, the saved state and the factories follow. At 1,000 devices each line a
    // delivery touches is a cache miss; scattered over the device (1.5 KB), they were several
    // more (docs/PERFORMANCE.md, kvs17).
    let id: DeviceID
    /// Bumped at every crash, restart, deletion and install: stale responses and timers are dropped.
    var boot: UInt32 = 0
    var online: Bool
    var crashed = false
    var installed = true
    /// `kvsApp != nil`, kept in step by hand at every assignment (false while the app is taken
    /// out for its own call): comparing the optional existential with nil copies the app out
    /// first, and the hot paths ask it at every KVS notification and accepted write. Not a
    /// `didSet` on `kvsApp`: that would copy the app at every `take()` and put-back.
    var hasKVSApp = false
    /// Per store: is the engine busy (not quiescent)?
    var busy = PerStore(repeating: false)
    /// Engine-made writes numbered on this device so far, by every store and install: the
    /// device's, not the app's, so an id is never given twice (`EngineContext.derivedWrites`).
    var derivedWrites: UInt32 = 0
    var clock: DeviceClock
    /// Engine randomness per store (`engine/<device>/<store>`), kept across crashes.
    var engineRandom: PerStore<SeededRandom>
    /// Per store, the highest request id the device has sent. The transport's numbering, not the
    /// app's data: it survives `app.delete`, so a reinstalled app's requests never reuse an id.
    var lastRequestIDs = PerStore<UInt64>(repeating: 0)
    /// Signed-in account; nil while signed out.
    var account: AccountID?
    /// The account the device last signed into (requests made while signed out carry it).
    var lastAccount: AccountID
    var link: LinkState
    /// The running KVS app: made with the engines, dropped with them at a crash.
    var kvsApp: (any KVSAppHosting)?
    var kvs: KVSEngine?
    let name: String
    var documents: DocumentEngine?
    var records: RecordEngine?
    var savedKVS: KVSEngine.Durable?
    var savedDocuments: DocumentEngine.Durable?
    var savedRecords: RecordEngine.Durable?
    /// Makes the device's KVS app: a team's, or the built-in `reader` (SyncLabApps' `KVSReaderApp`).
    var kvsAppFactory: (@Sendable () -> any KVSAppHosting)?
    /// Makes the device's team document app (nil: the built-in app of its policy, `DocumentEngine.builtInApp`).
    var documentsAppFactory: (@Sendable () -> any DocumentsAppHosting)?
    var documentsApp: (any DocumentsAppHosting)?
    /// Makes the device's records app from what it persisted (nil: a built-in policy runs in the engine).
    var recordsAppFactory: (@Sendable ((any Sendable)?) -> any SyncEngineAppHosting)?
    /// The running records app and the platform engine serving it (instead of `records`): both
    /// made at launch, dropped at a crash.
    var recordsApp: (any SyncEngineAppHosting)?
    var recordsPlatform: SyncEnginePlatform?
    /// The records app's disk (what it persisted, read when the device crashes) and the
    /// platform's write-id memory: what survives a crash; `app.delete` drops both.
    var savedRecordsAppDisk: (any Sendable)?
    var savedRecordLabels: RecordLabels?
    /// The writes the running KVS app has seen, which its own writes are built on. Its memory:
    /// gone with it.
    var kvsAppSeen = KVSAppReadMemory()
    /// The last user write number given out on this device.
    var writeSequence: UInt32 = 0
    /// The latest push held per store while offline (APNs keeps one per app).
    var heldPushes = PerStore<PushNotification?>(repeating: nil)

    /// Runs `body` on the records platform engine and the records app where they lie (no copy
    /// of either); nothing when the device hosts none.
    mutating func withRecordsApp(_ body: (inout SyncEnginePlatform, inout any SyncEngineAppHosting) -> Void) {
        guard recordsPlatform != nil, recordsApp != nil else { return }
        body(&recordsPlatform!, &recordsApp!)
    }

    /// Keeps what an engine's step used of the device's: `store`'s randomness and the count of
    /// engine-made writes (one access of the device from the simulator, not two).
    mutating func keep(random: SeededRandom, derivedWrites: UInt32, of store: Store) {
        engineRandom[store] = random
        self.derivedWrites = derivedWrites
    }

    /// Sets the busy flag of `store`'s engine from the engine; returns the change in the number
    /// of busy engines (-1, 0 or 1).
    mutating func updateBusy(_ store: Store) -> Int {
        // Asked through mutating calls: `kvs?.isQuiescent` copies the whole engine out first
        // (retaining every field); a mutating call works on the engine where it lies.
        let quiet: Bool
        switch store {
        case .kvs: quiet = kvs?.isQuiescentInPlace() ?? true
        case .documents: quiet = documents?.isQuiescentInPlace() ?? true
        case .records: quiet = records?.isQuiescentInPlace() ?? recordsPlatform?.isQuiescentInPlace() ?? true
        }
        let busy = !quiet
        guard self.busy[store] != busy else { return 0 }
        self.busy[store] = busy
        return busy ? 1 : -1
    }

    /// The KVS engine's local values (nil: no engine), read where the engine lies: a read of
    /// `devices[i].kvs` from outside copies the whole device out of the array first.
    mutating func kvsLocalValues() -> KVSEngine.LocalStore? { kvs?.localValues }
}

extension Store {
    /// Dense index for per-store arrays.
    @inlinable var slot: Int {
        switch self {
        case .kvs: return 0
        case .documents: return 1
        case .records: return 2
        }
    }
}
