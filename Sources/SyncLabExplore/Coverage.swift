import SyncLabChecker
import SyncLabResult
import SyncLabHistory
import SyncLabProtocol
import SyncLabSimulation

/// How often each hazard actually happened in a run (or a campaign): what a campaign exercised.
public struct Coverage: Sendable, Equatable {
    /// Hazard names in the order summaries list them.
    public static let hazards = ["conflicts", "serverRecordChanged", "quotaViolations", "crashesWithChangesPending",
                                 "zoneDeletions", "tokenExpiries", "accountSwitches"]
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
            default: break
            }
        }
        for step in outcome.run.steps {
            switch step.op {
            case .zoneDelete: counts[4] += 1
            case .cloudExpireTokens: counts[5] += 1
            default: break
            }
        }
    }

    public mutating func add(_ other: Coverage) {
        for index in counts.indices { counts[index] += other.counts[index] }
    }
}
