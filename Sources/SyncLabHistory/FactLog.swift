#if canImport(Glibc)
import Glibc
#endif
import SyncLabKernel
import SyncLabProtocol

/// The facts of a run, in the order reported (`History.facts`): chunks of plain 48-byte
/// `StoredFact`s that never move once written, beside the tables they point into (items,
/// values that are not plain numbers, facts that are not `visible`).
///
/// One `[FactRecord]` grew by doubling, and each growth copied every fact recorded so far into
/// a fresh, not yet paged-in buffer: at 1,000 devices (2.6 M facts, some 140 bytes each) that
/// `memmove` and its page faults were a tenth of `bench --check`'s CPU and most of its peak
/// memory (issue 13, `--check`, session 8). Here the facts go into chunks of a fixed size: a
/// full chunk stays where it is and the next one is reserved whole, so a fact is written once.
/// The first chunk grows as an array does, so a small run takes no more memory than before.
/// Since session 9 a fact is kept as a `StoredFact` (see there why); reading one (`subscript`)
/// builds the `FactRecord` it was made from, equal to it field for field, byte for byte.
public struct FactLog: RandomAccessCollection, Sendable {
    /// log2 of the facts in a chunk (131,072: 6 MB, three 2 MB huge pages, see `adviseHugePages`).
    @usableFromInline static let chunkShift = 17
    @usableFromInline static let chunkMask = (1 << chunkShift) - 1

    /// The facts, chunk by chunk: every chunk but the last holds `1 << chunkShift` facts. The
    /// checker's scan reads them chunk by chunk, an array at a time.
    public private(set) var chunks: [[StoredFact]] = []
    /// How many facts were recorded.
    public private(set) var count = 0
    /// The items of the `visible` facts, by `StoredFact.item`.
    private var items = ItemInterner()
    /// The values of `visible` facts that are not plain numbers, by `StoredFact.payload`.
    private var values: [ItemValue] = []
    /// The notifications, by `StoredFact.payload` (a third of a run's facts: 32 bytes each
    /// here, not a whole `FactKind`).
    private var notifications: [AppNotification] = []
    /// The other facts, by `StoredFact.payload`.
    private var others: [FactKind] = []

    /// No facts.
    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The fact at `position`, as it was recorded.
    public subscript(position: Int) -> FactRecord {
        precondition(position >= 0 && position < count, "FactLog: index \(position) out of 0..<\(count)")
        return record(chunks[position >> FactLog.chunkShift][position & FactLog.chunkMask])
    }

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

    /// The notification a stored fact reports (`StoredFact.isNotification`).
    public func notification(of fact: StoredFact) -> AppNotification { notifications[Int(fact.payload)] }

    /// What a stored fact reports.
    public func kind(of fact: StoredFact) -> FactKind {
        if fact.isNotification { return .notification(notification(of: fact)) }
        guard fact.isVisible else { return others[Int(fact.payload)] }
        return .observation(.visible(item: item(fact.item), value: value(of: fact), write: fact.write, cause: fact.cause))
    }

    /// The `FactRecord` a stored fact was made from.
    public func record(_ fact: StoredFact) -> FactRecord {
        FactRecord(batch: fact.batch, at: fact.at, device: fact.device, kind: kind(of: fact))
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
    /// building one (the simulator's path: one copy of the observation fewer per fact).
    public mutating func append(_ observation: Observation, batch: Int, at: SimInstant, device: DeviceID?) {
        guard case .visible(let item, let value, let write, let cause) = observation else {
            appendOther(.observation(observation), batch: batch, at: at, device: device)
            return
        }
        var stored = StoredFact(batch: batch, at: at, payload: 0, item: items.id(of: item), write: write, device: device,
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
        store(StoredFact(batch: batch, at: at, payload: Int64(notifications.count), item: -1, write: nil, device: device,
                         cause: .local, form: StoredFact.Form.notification))
        notifications.append(notification)
    }

    /// Records a fact that is neither `visible` nor a notification.
    private mutating func appendOther(_ kind: FactKind, batch: Int, at: SimInstant, device: DeviceID?) {
        store(StoredFact(batch: batch, at: at, payload: Int64(others.count), item: -1, write: nil, device: device,
                         cause: .local, form: StoredFact.Form.other))
        others.append(kind)
    }

    /// Puts a stored fact after the others, in the last chunk or a new one.
    private mutating func store(_ stored: StoredFact) {
        if count & FactLog.chunkMask == 0 {
            var chunk: [StoredFact] = []
            if count > 0 {
                chunk.reserveCapacity(FactLog.chunkMask + 1)
                FactLog.adviseHugePages(&chunk)
            }
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(stored)
        count += 1
    }

    /// Asks Linux to back a whole chunk with 2 MB pages as it is written: 4 KB pages made a page
    /// fault every 85 facts, some 30,000 for the facts of a 1,000-device `bench --check`, most of
    /// its system time (issue 13, session 10). Only a hint (`transparent_hugepage` `madvise` or
    /// `always`); elsewhere nothing. Facts and their order do not depend on it.
    private static func adviseHugePages(_ chunk: inout [StoredFact]) {
        #if canImport(Glibc)
        let bytes = chunk.capacity * MemoryLayout<StoredFact>.stride
        chunk.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let page = 4096
            let start = Int(bitPattern: base) & ~(page - 1)
            let end = (Int(bitPattern: base) + bytes + page - 1) & ~(page - 1)
            _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, Int32(MADV_HUGEPAGE))
        }
        #endif
    }
}
