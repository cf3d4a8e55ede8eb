import SyncLabChecker
import SyncLabResult
import SyncLabHistory
import SyncLabProtocol
import SyncLabSimulation

/// How often each hazard actually happened in a run (or a campaign): what a campaign exercised.
public struct Coverage: Sendable, Equatable {
    /// Hazard names in the order summaries list them.
    /// The last nine count the SPEC §5 inputs the generator draws since session 16
    /// (`ExtraInput`): steps run, and for long KVS keys the calls refused for them.
    public static let hazards = ["conflicts", "serverRecordChanged", "quotaViolations", "crashesWithChangesPending",
                                 "zoneDeletions", "tokenExpiries", "accountSwitches",
                                 "appForegrounds", "networkChanges", "clockSets", "cloudClockSets", "subscriptions",
                                 "publicRecordWrites", "defaultZoneRecordWrites", "otherTypeRecordSaves", "longKeyRefusals"]
    /// Counts, index = `hazards` index.
    public var counts: [Int] = Array(repeating: 0, count: Coverage.hazards.count)

    public init() {}

    /// What one run exercised, from its history and statistics (no trace needed).
    public init(_ outcome: RunOutcome) {
        counts[0] = outcome.report.conflicts
        counts[2] = outcome.report.quotaViolations
        counts[1] = outcome.statistics.serverRecordChanged
        counts[3] = outcome.statistics.crashesWithChangesPending
        var accounts: [Int: AccountID] = [:]
        for fact in outcome.history.facts {
            switch fact.kind {
            case .accountChanged(let account?):
                let device = Int(fact.device?.index ?? -1)
                if let previous = accounts[device], previous != account { counts[6] += 1 }
                accounts[device] = account
            case .observation(.rejected(_, let item, "invalidArgument", _)) where item.store == .kvs && item.name.utf8.count > 64:
                counts[15] += 1
            default: break
            }
        }
        // The first record type a run saves is its usual one; saves of any other count.
        var firstType: String?
        for step in outcome.run.steps {
            let devices = max(step.devices.count, 1)
            switch step.op {
            case .zoneDelete: counts[4] += 1
            case .cloudExpireTokens: counts[5] += 1
            case .appForeground: counts[7] += devices
            case .networkSet: counts[8] += devices
            case .clockSet: counts[9] += devices
            case .cloudClockSet: counts[10] += 1
            case .subscriptionCreate: counts[11] += devices
            case .recordSave(let change):
                countPlace(change.database, change.zone, devices)
                if change.type != (firstType ?? change.type) { counts[14] += devices }
                firstType = firstType ?? change.type
            case .recordDelete(let database, let zone, _): countPlace(database, zone, devices)
            case .recordsSaveAtomic(_, _, let saves, _):
                for save in saves {
                    if save.type != (firstType ?? save.type) { counts[14] += devices }
                    firstType = firstType ?? save.type
                }
            default: break
            }
        }
    }

    /// A record write's place: the public database, or a private `_defaultZone`.
    private mutating func countPlace(_ database: DatabaseScope, _ zone: String, _ devices: Int) {
        if database == .public { counts[12] += devices } else if zone == RecordID.defaultZone { counts[13] += devices }
    }

    public mutating func add(_ other: Coverage) {
        for index in counts.indices { counts[index] += other.counts[index] }
    }
}
