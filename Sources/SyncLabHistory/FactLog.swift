import SyncLabKernel
import SyncLabProtocol

/// The facts of a run, in the order reported (`History.facts`): chunks of plain 32-byte
/// `StoredFact`s that never move once written, beside the tables they point into (batches and
/// times, items, values that are not plain numbers, notifications' items and reasons, other facts).
///
/// One `[FactRecord]` grew by doubling, and each growth copied every fact recorded so far into
/// a fresh, not yet paged-in buffer: at 1,000 devices (2.6 M facts, some 140 bytes each) that
/// `memmove` and its page faults were a tenth of `bench --check`'s CPU and most of its peak
/// memory (issue 13, `--check`, session 8). Here the facts go into chunks of a fixed size: a
/// full chunk stays where it is and the next one is reserved whole, so a fact is written once
/// (`ChunkedTable`, since session 10 also for the notifications' items).
/// Since session 9 a fact is kept as a `StoredFact` (see there why); reading one (`subscript`)
/// builds the `FactRecord` it was made from, equal to it field for field, byte for byte.
public struct FactLog: RandomAccessCollection, Sendable {
    /// The facts, in chunks of 131,072 (4 MB) that never move.
    private var facts = ChunkedTable<StoredFact>()
    /// The facts, chunk by chunk: every chunk but the last holds 131,072 facts. The checker's
    /// scan reads them chunk by chunk, an array at a time.
    public var chunks: [[StoredFact]] { facts.chunks }
    /// How many facts were recorded.
    public var count: Int { facts.count }
    /// The (batch, time) of the facts, by `StoredFact.run`: one per batch, not per fact.
    private var runs = ChunkedTable<FactRun>()
    /// The batch and time of the last of `runs` (batch -1: none yet, nor any batch a fact
    /// gives), so a fact of the same batch finds it without a lookup; two plain numbers, not
    /// an optional `FactRun` compared whole.
    private var lastBatch = -1
    private var lastAt = SimInstant(microseconds: .min)
    /// The items of the `visible` facts, by `StoredFact.item`.
    private var items = Interner<ItemKey>()
    /// The values of `visible` facts that are not plain numbers, by `StoredFact.payload`.
    private var values: [ItemValue] = []
    /// The notifications' items, one run per notification (`StoredNotification.items`), as ids in `names`.
    private var notificationItems = ChunkedTable<Int32>()
    /// The names the notifications list, by id.
    private var names = Interner<String>()
    /// The notifications' reasons, by id.
    private var reasons = Interner<String>()
    /// The other facts, by `StoredFact.payload`.
    private var others: [FactKind] = []

    /// No facts.
    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The fact at `position`, as it was recorded.
    public subscript(position: Int) -> FactRecord {
        precondition(position >= 0 && position < count, "FactLog: index \(position) out of 0..<\(count)")
        return record(facts[position])
    }

    /// The batch and time of the facts with this `StoredFact.run`.
    public func run(_ id: Int32) -> FactRun { runs[Int(id)] }

    /// The item of a `visible` fact's `StoredFact.item`.
    public func item(_ id: Int32) -> ItemKey { items.keys[Int(id)] }

    /// How many items the `visible` facts name.
    public var itemCount: Int { items.keys.count }

    /// The value a `visible` stored fact shows.
    public func value(of fact: StoredFact) -> ItemValue {
        switch fact.form {
        case StoredFact.Form.kvsInteger: return .kvs(.integer(fact.payload))
        case StoredFact.Form.fieldInt: return .field(.int(fact.payload))
        case StoredFact.Form.kept: return values[Int(fact.payload)]
        default: return .absent
        }
    }

    /// The notification a stored fact reports (`StoredFact.isNotification`), as it was recorded.
    public func notification(of fact: StoredFact) -> AppNotification {
        let stored = storedNotification(of: fact)
        return AppNotification(store: stored.store, reason: reason(stored.reason), items: stored.items.map { name(notificationItem($0)) })
    }

    /// The notification a stored fact reports (`StoredFact.isNotification`), as the log keeps it.
    public func storedNotification(of fact: StoredFact) -> StoredNotification { fact.notification }

    /// The name id of the notification item at `position` (`StoredNotification.items`).
    public func notificationItem(_ position: Int) -> Int32 { notificationItems[position] }

    /// The name a notification listed, by its id.
    public func name(_ id: Int32) -> String { names.keys[Int(id)] }

    /// The id of a name some notification listed, spelled byte for byte as `name`; nil when none listed it.
    public func nameID(of name: String) -> Int32? { names.existingID(of: name) }

    /// A notification's reason, by its id.
    public func reason(_ id: Int32) -> String { reasons.keys[Int(id)] }

    /// How many reasons the notifications gave (ids `0..<reasonCount`; two spellings of one text are two).
    public var reasonCount: Int { reasons.keys.count }

    /// How many names the notifications listed (each kept once).
    public var notificationNameCount: Int { names.keys.count }

    /// What a stored fact reports.
    public func kind(of fact: StoredFact) -> FactKind {
        if fact.isNotification { return .notification(notification(of: fact)) }
        guard fact.isVisible else { return others[Int(fact.payload)] }
        return .observation(.visible(item: item(fact.item), value: value(of: fact), write: fact.write, cause: fact.cause))
    }

    /// The `FactRecord` a stored fact was made from.
    public func record(_ fact: StoredFact) -> FactRecord {
        let run = run(fact.run)
        return FactRecord(batch: run.batch, at: run.at, device: fact.device, kind: kind(of: fact))
    }

    /// Records one fact after the others.
    public mutating func append(_ fact: FactRecord) {
        switch fact.kind {
        case .observation(let observation): append(observation, batch: fact.batch, at: fact.at, device: fact.device)
        case .notification(let notification): append(notification, batch: fact.batch, at: fact.at, device: fact.device)
        case .accountChanged: appendOther(fact.kind, batch: fact.batch, at: fact.at, device: fact.device)
        }
    }

    /// Records an observation after the other facts: `append(_:)` of its `FactRecord`, without
    /// building one (the simulator's path: one copy of the observation fewer per fact). Taken,
    /// not lent: a lent observation was copied by its caller for the call.
    public mutating func append(_ observation: consuming Observation, batch: Int, at: SimInstant, device: DeviceID?) {
        guard case .visible(let item, let value, let write, let cause) = observation else {
            appendOther(.observation(observation), batch: batch, at: at, device: device)
            return
        }
        var stored = StoredFact(run: runID(batch: batch, at: at), payload: 0, item: items.id(of: item), write: write, device: device,
                                cause: cause, form: StoredFact.Form.kept)
        switch value {
        case .absent: stored.form = StoredFact.Form.absent
        case .kvs(.integer(let number)): stored.form = StoredFact.Form.kvsInteger; stored.payload = number
        case .field(.int(let number)): stored.form = StoredFact.Form.fieldInt; stored.payload = number
        default:
            stored.payload = Int64(values.count)
            values.append(value)
        }
        store(stored)
    }

    /// Records a notification after the other facts.
    public mutating func append(_ notification: AppNotification, batch: Int, at: SimInstant, device: DeviceID?) {
        // More than two billion items in one notification would not fit the fact (nor memory).
        precondition(notification.items.count <= Int(Int32.max), "FactLog: a notification of more than \(Int32.max) items")
        let stored = StoredNotification(firstItem: notificationItems.count, itemCount: Int32(notification.items.count),
                                        reason: reasons.id(of: notification.reason), store: notification.store)
        store(StoredFact(run: runID(batch: batch, at: at), notification: stored, device: device))
        for item in notification.items { notificationItems.append(names.id(of: item)) }
    }

    /// Records a fact that is neither `visible` nor a notification.
    private mutating func appendOther(_ kind: FactKind, batch: Int, at: SimInstant, device: DeviceID?) {
        store(StoredFact(run: runID(batch: batch, at: at), payload: Int64(others.count), item: -1, write: nil, device: device,
                         cause: .local, form: StoredFact.Form.other))
        others.append(kind)
    }

    /// The run of a fact of `batch` at `at`: the last one when the fact continues it, else a new one.
    private mutating func runID(batch: Int, at: SimInstant) -> Int32 {
        if batch != lastBatch || at != lastAt || runs.count == 0 {
            // Two billion batches would be a history of some 100 GB: memory runs out long before.
            precondition(runs.count < Int(Int32.max), "FactLog: more than \(Int32.max) batches")
            runs.append(FactRun(batch: batch, at: at))
            lastBatch = batch; lastAt = at
        }
        return Int32(runs.count - 1)
    }

    /// Puts a stored fact after the others.
    private mutating func store(_ stored: StoredFact) { facts.append(stored) }
}
