import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory

/// `FactLog`: facts read back in order across chunks, and recording never moves a fact already kept.
struct FactLogTests {
    /// Facts in a full chunk (`FactLog.chunkShift`: 131,072 since session 10, 4 MB since session 11).
    private let chunkSize = 131_072

    private func fact(_ number: Int) -> FactRecord {
        FactRecord(batch: number, at: SimInstant(microseconds: Int64(number)), device: DeviceID(index: number % 3), kind: .accountChanged(AccountID(0)))
    }

    @Test func factsReadBackInOrderAcrossChunks() {
        var log = FactLog()
        let total = 2 * chunkSize + 5
        for number in 0..<total { log.append(fact(number)) }
        #expect(log.count == total)
        #expect(log.chunks.count == 3)
        #expect(log.chunks.dropLast().allSatisfy { $0.count == chunkSize })
        #expect(log.indices.allSatisfy { log[$0].batch == $0 })
        #expect(log.last?.batch == total - 1)
        #expect(Array(log.map(\.batch).prefix(3)) == [0, 1, 2])
    }

    @Test func aFullChunkIsNeverMovedAndTheNextIsReservedWhole() {
        var log = FactLog()
        for number in 0..<(chunkSize + 1) { log.append(fact(number)) }
        let second = log.chunks[1].withUnsafeBufferPointer { $0.baseAddress }
        #expect(log.chunks[1].capacity >= chunkSize)
        for number in (chunkSize + 1)..<(2 * chunkSize) { log.append(fact(number)) }
        #expect(log.chunks[1].withUnsafeBufferPointer { $0.baseAddress } == second)
    }

    @Test func everyKindOfFactReadsBackAsItWasRecorded() {
        // Kept as plain 32-byte facts beside tables (runs, items, values, notifications, others): each
        // reads back field for field, the reflected text of both equal.
        let main = AccountID(0)
        let writer = WriteID(device: DeviceID(1), sequence: 4)
        let key = ItemKey(account: main, store: .kvs, name: "k1")
        let record = ItemKey(account: main, store: .records, name: "Zone/r1", field: "title")
        // "é" precomposed and decomposed: equal as Strings, two spellings the log must keep apart.
        let composed = ItemKey(account: main, store: .documents, name: "caf\u{E9}.txt")
        let decomposed = ItemKey(account: main, store: .documents, name: "cafe\u{301}.txt")
        let kinds: [FactKind] = [
            .observation(.visible(item: key, value: .kvs(.integer(-7)), write: writer, cause: .fetch)),
            .observation(.visible(item: key, value: .absent, write: nil, cause: .reset)),
            .observation(.visible(item: record, value: .field(.int(Int64.min)), write: writer, cause: .local)),
            .observation(.visible(item: record, value: .field(.string("hello")), write: writer, cause: .resolution)),
            .observation(.visible(item: key, value: .kvs(.string("long enough to live on the heap")), write: writer, cause: .rollback)),
            .observation(.visible(item: composed, value: .document(.text("a")), write: writer, cause: .local)),
            .observation(.visible(item: decomposed, value: .recordExists(type: "Item"), write: writer, cause: .local)),
            .notification(AppNotification(store: .kvs, reason: "serverChange", items: ["k1", "k2"])),
            .observation(.lastWriterWins(item: key, chosen: writer, over: WriteID(device: DeviceID(2), sequence: 1, derived: true), rule: "timestamp")),
            .observation(.note("a remark")),
            .accountChanged(nil),
        ]
        var log = FactLog()
        var recorded: [FactRecord] = []
        for (number, kind) in kinds.enumerated() {
            let fact = FactRecord(batch: number / 2, at: SimInstant(microseconds: Int64(number * 10)),
                                  device: number % 4 == 3 ? nil : DeviceID(Int32(number)), kind: kind)
            recorded.append(fact)
            log.append(fact)
        }
        #expect(log.map { String(reflecting: $0) } == recorded.map { String(reflecting: $0) })
        #expect(log.itemCount == 4)
        #expect(log.chunks[0].filter(\.isVisible).count == 7)
        #expect(log.chunks[0].filter(\.isNotification).count == 1)
        #expect(MemoryLayout<StoredFact>.stride == 32)
    }

    @Test func factsOfOneBatchShareOneRunAndEachReadsBackItsBatchAndTime() {
        // A batch's facts share one (batch, time) run; a fact of the same batch at another time
        // (only a hand-built log does that) starts a run of its own and reads back its own time.
        // Writes and devices read back exactly, a negative index and a derived write included.
        var log = FactLog()
        let item = ItemKey(account: AccountID(0), store: .kvs, name: "k")
        let writes: [WriteID?] = [nil, WriteID(device: DeviceID(-1), sequence: UInt32.max, derived: true), WriteID(device: DeviceID(3), sequence: 0)]
        let devices: [DeviceID?] = [nil, DeviceID(-2), DeviceID(Int32.max)]
        var recorded: [FactRecord] = []
        for (batch, at) in [(1, 10), (1, 10), (1, 10), (2, 10), (2, 11), (3, 11), (3, 11)] {
            let number = recorded.count
            let fact = FactRecord(batch: batch, at: SimInstant(microseconds: Int64(at)), device: devices[number % 3],
                                  kind: .observation(.visible(item: item, value: .kvs(.integer(Int64(number))), write: writes[number % 3], cause: .fetch)))
            recorded.append(fact)
            log.append(fact)
        }
        #expect(log.chunks[0].map(\.run) == [0, 0, 0, 1, 2, 3, 3])
        #expect(log.map { String(reflecting: $0) } == recorded.map { String(reflecting: $0) })
        #expect(log.run(2) == FactRun(batch: 2, at: SimInstant(microseconds: 11)))
    }

    @Test func notificationsAreKeptAsIdsAndReadBackAsRecorded() {
        // A notification is a reason id and a run of name ids (`StoredNotification`), not the
        // engine's `AppNotification` with its own item array: each name and reason kept once,
        // two spellings of one text kept apart, every notification read back byte for byte.
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        var log = FactLog()
        var recorded: [AppNotification] = []
        for number in 0..<1_000 {
            let items = number % 2 == 0 ? ["k1", "k2", composed] : [decomposed]
            let notification = AppNotification(store: number % 3 == 0 ? .documents : .kvs,
                                               reason: number % 5 == 0 ? "initialSyncChange" : "serverChange", items: items)
            recorded.append(notification)
            log.append(notification, batch: number, at: SimInstant(microseconds: Int64(number)), device: DeviceID(Int32(number % 7)))
        }
        log.append(AppNotification(store: .records, reason: "fetched", items: []), batch: 1_000, at: SimInstant(microseconds: 1_000), device: nil)
        recorded.append(AppNotification(store: .records, reason: "fetched", items: []))
        #expect(log.count == 1_001)
        #expect(log.notificationNameCount == 4)
        #expect(log.reasonCount == 3)
        let stored = log.chunks[0].map { log.storedNotification(of: $0) }
        #expect(stored.map(\.items.count) == recorded.map(\.items.count))
        #expect(stored.map { log.reason($0.reason) } == recorded.map(\.reason))
        #expect(log.chunks[0].map { log.notification(of: $0) } == recorded)
        #expect(log.chunks[0].map { Array(log.notification(of: $0).items.map { Array($0.utf8) }) } == recorded.map { $0.items.map { Array($0.utf8) } })
    }

    @Test func oneNameHeldInTwoRepresentationsIsOneName() {
        // The interner's shortcut takes the same 16 bytes of representation for the same text;
        // the same text in another representation (here kept in a heap buffer, not inline) must
        // still be found by its bytes, and two spellings stay two.
        var heap = String(repeating: "k", count: 40)
        heap.removeLast(35)
        #expect(heap == "kkkkk")
        var log = FactLog()
        for (number, name) in ["kkkkk", heap, "kkkkk", heap, "kkkkkk"].enumerated() {
            log.append(AppNotification(store: .kvs, reason: "serverChange", items: [name]), batch: number, at: .start, device: DeviceID(0))
            let item = ItemKey(account: AccountID(0), store: .kvs, name: name)
            log.append(FactRecord(batch: number, at: .start, device: DeviceID(0),
                                  kind: .observation(.visible(item: item, value: .absent, write: nil, cause: .fetch))))
        }
        #expect(log.notificationNameCount == 2)
        #expect(log.itemCount == 2)
        #expect(log.map { String(reflecting: $0) }.filter { $0.contains("kkkkkk") }.count == 2)
    }

    @Test func keysMetAgainInterleavedAndInFreshCopiesKeepTheirIds() {
        // 3,000 items (more than the interner's 1,024 recent ids, so they share slots) met
        // three times, interleaved, the third time as fresh heap copies of long names (another
        // representation of the same bytes): each keeps the id it got first, and each fact
        // reads back its own item.
        var log = FactLog()
        let names = (0..<3_000).map { "Zone/a record name long enough for the heap \($0)" }
        var recorded: [ItemKey] = []
        for round in 0..<3 {
            for number in stride(from: round, to: 3_000 + round, by: 1) {
                let name = round == 2 ? String(decoding: Array(names[number % 3_000].utf8), as: UTF8.self) : names[number % 3_000]
                let item = ItemKey(account: AccountID(Int32(number % 2)), store: .records, name: name, field: "title")
                recorded.append(item)
                log.append(FactRecord(batch: recorded.count, at: .start, device: DeviceID(0),
                                      kind: .observation(.visible(item: item, value: .absent, write: nil, cause: .fetch))))
            }
        }
        #expect(log.itemCount == 3_000)
        var readBack: [ItemKey] = []
        for chunk in log.chunks { for fact in chunk { readBack.append(log.item(fact.item)) } }
        #expect(readBack.count == recorded.count)
        // How many facts read back another item (a count, so a failure prints short).
        #expect(zip(readBack, recorded).filter { Array($0.name.utf8) != Array($1.name.utf8) || $0.account != $1.account }.count == 0)
    }
}
