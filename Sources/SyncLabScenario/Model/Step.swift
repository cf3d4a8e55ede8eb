import SyncLabKernel
import SyncLabProtocol

/// One expanded step: an operation at a time on a set of devices.
public struct Step: Sendable {
    public var at: SimInstant
    /// Device indices the op applies to, in the order written (`"*"`: every device in order).
    /// Empty for `cloud.*` ops.
    public var devices: [Int]
    public var op: StepOp
    /// Where it came from, for messages and the trace: `steps[3]`, plus `#i` for a repetition.
    public var source: String
    /// The step's index in the file (before expansion): ties at equal times run in file order.
    public var fileIndex: Int

    public init(at: SimInstant, devices: [Int], op: StepOp, source: String, fileIndex: Int) {
        self.at = at; self.devices = devices; self.op = op; self.source = source; self.fileIndex = fileIndex
    }
}

/// Every op of SPEC §5, with its arguments resolved and typed.
public enum StepOp: Sendable {
    // Device and network.
    case airplaneOn
    case airplaneOff
    case networkSet(LinkOverride)
    case appForeground
    case cloudClockSet(offset: SimDuration)
    case clockSet(offset: SimDuration)
    case clockJump(by: SimDuration)
    case deviceCrash
    case deviceRestart
    case appDelete
    case appInstall
    case accountSignOut
    /// Index into the run's accounts.
    case accountSignIn(account: Int)
    case cloudOutage(duration: SimDuration)
    /// `zone` nil: every request fails with `requestRateLimited`; a zone: record requests about
    /// that zone fail with `zoneBusy` (a SyncLab extension).
    case cloudThrottle(duration: SimDuration, retryAfter: SimDuration, zone: String?)
    case cloudExpireTokens
    // Key-value store. `kvsSet` is `kvs.set`, or `kvs.setMany` when `many` (even of one key:
    // the trace and explanations name the op the user wrote).
    case kvsSet(entries: [PlistEntry], many: Bool = false)
    case kvsRemove(key: String)
    case kvsIncrement(key: String, by: Int64)
    case kvsSynchronize
    // Documents.
    case docSave(path: String, content: DocumentContent)
    case docAppend(path: String, text: String)
    case docDelete(path: String)
    // Records.
    case zoneCreate(database: DatabaseScope, zone: String)
    case zoneDelete(database: DatabaseScope, zone: String, byUser: Bool)
    case recordSave(RecordFieldsChange)
    case recordDelete(database: DatabaseScope, zone: String, name: String)
    case recordsSaveAtomic(database: DatabaseScope, zone: String, saves: [RecordFieldsChange], deletes: [String])
    case subscriptionCreate(database: DatabaseScope)
    // Checks.
    case assert(AssertSpec)

    /// The op's name as written in scenario files.
    public var name: String {
        switch self {
        case .airplaneOn: return "airplane.on"
        case .airplaneOff: return "airplane.off"
        case .networkSet: return "network.set"
        case .appForeground: return "app.foreground"
        case .cloudClockSet: return "cloud.clock.set"
        case .clockSet: return "clock.set"
        case .clockJump: return "clock.jump"
        case .deviceCrash: return "device.crash"
        case .deviceRestart: return "device.restart"
        case .appDelete: return "app.delete"
        case .appInstall: return "app.install"
        case .accountSignOut: return "account.signOut"
        case .accountSignIn: return "account.signIn"
        case .cloudOutage: return "cloud.outage"
        case .cloudThrottle: return "cloud.throttle"
        case .cloudExpireTokens: return "cloud.expireTokens"
        case .kvsSet(let entries, let many): return many || entries.count != 1 ? "kvs.setMany" : "kvs.set"
        case .kvsRemove: return "kvs.remove"
        case .kvsIncrement: return "kvs.increment"
        case .kvsSynchronize: return "kvs.synchronize"
        case .docSave: return "doc.save"
        case .docAppend: return "doc.append"
        case .docDelete: return "doc.delete"
        case .zoneCreate: return "zone.create"
        case .zoneDelete: return "zone.delete"
        case .recordSave: return "record.save"
        case .recordDelete: return "record.delete"
        case .recordsSaveAtomic: return "records.saveAtomic"
        case .subscriptionCreate: return "subscription.create"
        case .assert: return "assert"
        }
    }
}

/// An `assert` step: each listed item, on the device's local view, must equal the value
/// (`nil` = absent). Records compare only the listed fields.
public struct AssertSpec: Sendable {
    public var kvs: [(key: String, value: PlistValue?)]
    public var documents: [(path: String, content: DocumentContent?)]
    /// `ZONE/NAME` → fields to compare, or nil for "the record is absent".
    public var records: [(name: String, fields: [FieldAssignment]?)]
    /// The database `records` are read from, as record ops name it (`"database": "public"`);
    /// nil when the assert does not say: the private database, or the public one for a record
    /// only it holds.
    public var database: DatabaseScope?
    public init(kvs: [(key: String, value: PlistValue?)] = [], documents: [(path: String, content: DocumentContent?)] = [], records: [(name: String, fields: [FieldAssignment]?)] = [],
                database: DatabaseScope? = nil) {
        self.kvs = kvs; self.documents = documents; self.records = records; self.database = database
    }
}
