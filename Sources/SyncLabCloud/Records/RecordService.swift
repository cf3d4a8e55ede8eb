import SyncLabKernel
import SyncLabProtocol

/// The CloudKit-like database service (SPEC §4.3), sans-IO.
///
/// Holds one private database per account and one public database. Each record keeps per field
/// the write id of its value; each server write gets a new change tag. Zones track changes by a
/// per-database sequence: a change token is a position in it, stamped with the token epoch that
/// `expireTokens()` bumps. Records and their assets count against the account's storage quota
/// (the public database against the container's) through the `StorageLedger` shared with
/// documents.
public struct RecordService: Sendable {
    let configuration: CloudConfiguration
    /// By account; the public database under `AccountID.publicDatabase`.
    var databases: [AccountID: CloudRecordDatabase] = [:]
    var schema = RecordSchema()
    /// The last change tag handed out (tags are unique across the service).
    var lastChangeTag: UInt64 = 0
    /// Bumped by `expireTokens()`: tokens of an older epoch fail with `changeTokenExpired`.
    var tokenEpoch: UInt64 = 0

    public init(configuration: CloudConfiguration) {
        self.configuration = configuration
        for declared in configuration.schema {
            schema.declare(type: declared.type, fields: declared.fields.keys.sorted().map { ($0, declared.fields[$0] ?? "") })
        }
    }

    /// Handles one request for `request.account` (or the public database) and responds once.
    public mutating func handle(_ request: RequestEnvelope, _ body: RecordRequest, _ context: inout CloudContext, storage: inout StorageLedger) {
        let response: RecordResponse
        switch body {
        case .modifyZones(let database, let saves, let deletes):
            response = modifyZones(request, database, saves: saves, deletes: deletes, &context, storage: &storage)
        case .modifyRecords(let modify):
            response = modifyRecords(request, modify, &context, storage: &storage)
        case .fetchDatabaseChanges(let database, let token):
            response = fetchDatabaseChanges(key(database, request), since: token)
        case .fetchZoneChanges(let database, let zones):
            let dbKey = key(database, request)
            var answers: [ZoneChanges] = []
            answers.reserveCapacity(zones.count)
            for zone in zones { answers.append(fetchZoneChanges(dbKey, zone)) }
            response = .zoneChanges(answers)
        case .queryRecords(let database, let zone):
            response = query(key(database, request), zone: zone)
        case .createSubscription(let database):
            let dbKey = key(database, request)
            var db = databases.removeValue(forKey: dbKey) ?? CloudRecordDatabase()
            // Kept sorted by insertion at its place: a binary search, not a scan and a sort, so
            // N devices subscribing cost O(N log N) comparisons, not O(N² log N).
            var low = 0, high = db.subscribers.count
            while low < high {
                let middle = (low + high) / 2
                if db.subscribers[middle] < request.device { low = middle + 1 } else { high = middle }
            }
            if low == db.subscribers.count || db.subscribers[low] != request.device {
                db.subscribers.insert(request.device, at: low)
            }
            databases[dbKey] = db
            response = .subscribed(database: database)
        }
        context.respond(to: request, .records(response))
    }

    /// The cloud's records of `account`'s private database, or of the public database when
    /// `account == .publicDatabase`: an existence item and one item per field, sorted.
    public func finalView(account: AccountID) -> [ViewEntry] {
        guard let db = databases[account] else { return [] }
        var view: [ViewEntry] = []
        for zoneName in db.sortedZoneNames {
            let zone = db.zones[zoneName]!
            for name in zone.sortedNames {
                let record = zone.records[name]!.record
                let itemName = record.id.itemName
                view.append(ViewEntry(item: ItemKey(account: account, store: .records, name: itemName),
                                      value: .recordExists(type: record.type), write: record.existenceWrite))
                for field in record.fieldNames {
                    guard let stored = record.fields[field], let value = stored.value else { continue }
                    view.append(ViewEntry(item: ItemKey(account: account, store: .records, name: itemName, field: field),
                                          value: .field(value), write: stored.write))
                }
            }
        }
        return view.sorted { $0.item < $1.item }
    }

    /// `cloud.expireTokens`: every change token issued so far becomes invalid.
    public mutating func expireTokens() { tokenEpoch += 1 }

    /// Declares a record type's fields, as deploying a schema to production does (for tests and
    /// for hosts that model a deployed schema). Kinds: `string`, `int`, `double`, `bytes`,
    /// `date`, `location`, `reference`, `asset`, `list<KIND>`.
    public mutating func declareSchema(type: String, fields: [(name: String, kind: String)]) {
        schema.declare(type: type, fields: fields)
    }

    /// The database a request addresses: the public one, or the requesting account's private one.
    func key(_ database: DatabaseScope, _ request: RequestEnvelope) -> AccountID {
        switch database {
        case .public: return .publicDatabase
        case .private: return request.account
        }
    }

    /// Pushes a database change to its subscribed devices except the one that made it.
    func pushChange(_ dbKey: AccountID, except origin: DeviceID, _ context: inout CloudContext) {
        guard let db = databases[dbKey] else { return }
        for device in db.subscribers where device != origin {
            context.emit(.push(PushNotification(store: .records, account: dbKey), to: device))
        }
    }
}
