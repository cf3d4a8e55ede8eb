import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

/// The checker's item ids for the fact log's items (`CheckContext.itemID(logItem:of:)`).
struct LogItemTests {
    @Test func twoSpellingsOfOneNameAreTwoLogItemsButOneCheckedItem() {
        // The log keeps each spelling as reported (byte for byte); the checker judges items as
        // `ItemKey`s compare, as it did when it hashed every fact's item: one item here.
        var history = History(deviceNames: ["A", "B"], accountNames: ["main"])
        let composed = ItemKey(account: AccountID(0), store: .documents, name: "caf\u{E9}.txt")
        let decomposed = ItemKey(account: AccountID(0), store: .documents, name: "cafe\u{301}.txt")
        let write = WriteID(device: DeviceID(0), sequence: 1)
        history.facts.append(FactRecord(batch: 1, at: .start, device: DeviceID(0),
                                        kind: .observation(.visible(item: composed, value: .document(.text("a")), write: write, cause: .local))))
        history.facts.append(FactRecord(batch: 2, at: SimInstant(microseconds: 1), device: DeviceID(1),
                                        kind: .observation(.visible(item: decomposed, value: .document(.text("a")), write: write, cause: .fetch))))
        var moments = Checker.MomentPasses(deviceCount: 2, log: history.facts)
        let context = Checker.scan(history, &moments)
        #expect(history.facts.itemCount == 2)
        #expect(context.items.count == 1)
        #expect(context.shown[device: 1, item: 0]?.write == context.shown[device: 0, item: 0]?.write)
    }
}
