import Testing
import SyncLabProtocol
import SyncLabEngines

/// The pending-changes state of the platform engine that serves a team's records app (SPEC §9),
/// as `CKSyncEngine.State` keeps it.
@Suite("A hosted records app's engine state")
struct SyncEngineStateTests {
    let a = RecordID(zone: "Todos", name: "a"), b = RecordID(zone: "Todos", name: "b")

    @Test("changes are kept once each, in the order first added; one already pending is noted as added again")
    func addKeepsOrderAndOnce() {
        var state = SyncEngineStateData(account: AccountID(index: 0))
        state.add([.save(a), .save(b), .save(a)])
        #expect(state.pendingRecordChanges == [.save(a), .save(b)])
        #expect(state.readded.isEmpty)
        state.add([.save(b)])
        #expect(state.pendingRecordChanges == [.save(a), .save(b)] && state.readded == [.save(b)])
    }

    @Test("a save replaces a pending delete of the same record and a delete a pending save, in one call or across calls")
    func saveAndDeleteReplaceEachOther() {
        var state = SyncEngineStateData(account: AccountID(index: 0))
        state.add([.save(a), .save(b)])
        state.add([.delete(a)])
        #expect(state.pendingRecordChanges == [.save(b), .delete(a)])
        state.add([.save(a), .delete(a), .save(a)])
        #expect(state.pendingRecordChanges == [.save(b), .save(a)])
        state.remove([.save(b), .delete(a)])
        #expect(state.pendingRecordChanges == [.save(a)])
    }
}
