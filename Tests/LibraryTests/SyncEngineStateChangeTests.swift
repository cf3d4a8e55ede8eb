import Testing
@testable import SyncLabApps
import SyncLabEngines
import SyncLabKernel
import SyncLabProtocol

/// Whether a call into a records app changed the engine's state is what the platform acts on (a
/// `stateUpdate` at the end of the step, sending again after an empty batch). The app's handle
/// says so itself, without a copy of the state before every call.
@Suite("A call into a records app tells the platform whether it changed the engine's state")
struct SyncEngineStateChangeTests {
    let milk = SyncRecord.ID(recordName: "milk", zoneName: "Todos")

    /// One call into the app on `data`; true when the platform would see a change.
    func call(_ data: inout SyncEngineStateData, _ body: (inout SyncEngine) -> Void) -> Bool {
        var engine = SyncEngine.lending(&data, now: LocalInstant(microseconds: 0))
        body(&engine)
        engine.giveBack(&data)
        defer { data.changedByApp = false }
        return data.changedByApp
    }

    @Test("reading the pending changes is no change; adding one is")
    func readingAndAdding() {
        var data = SyncEngineStateData(account: AccountID(index: 0))
        #expect(!call(&data) { _ = $0.state.pendingRecordZoneChanges })
        #expect(call(&data) { $0.state.add(pendingRecordZoneChanges: [.saveRecord(milk)]) })
        #expect(data.pendingRecordChanges == [.save(RecordID(zone: "Todos", name: "milk"))])
    }

    @Test("a change added again while pending, or added and removed in one call, is no change of the state")
    func netlyUnchanged() {
        var data = SyncEngineStateData(account: AccountID(index: 0))
        _ = call(&data) { $0.state.add(pendingRecordZoneChanges: [.saveRecord(milk)]) }
        #expect(!call(&data) { $0.state.add(pendingRecordZoneChanges: [.saveRecord(milk)]) })
        #expect(data.readded == [.save(RecordID(zone: "Todos", name: "milk"))])
        data.readded = []
        let bread = SyncRecord.ID(recordName: "bread", zoneName: "Todos")
        #expect(!call(&data) { engine in
            engine.state.add(pendingRecordZoneChanges: [.saveRecord(bread)])
            engine.state.remove(pendingRecordZoneChanges: [.saveRecord(bread)])
        })
    }

    /// The adapter keeps one handle and lends the state through it call after call (no handle
    /// made and freed per call): each call reports only its own change, and the handle keeps
    /// no copy of the state between calls (held, it would make the platform's next change copy
    /// what it shares with it).
    @Test("one handle lent the state call after call reports each call's change alone and keeps no copy")
    func oneHandleForEveryCall() {
        var data = SyncEngineStateData(account: AccountID(index: 0))
        var engine = SyncEngine.idle()
        func call(_ body: (inout SyncEngine) -> Void) -> Bool {
            engine.lend(&data, now: LocalInstant(microseconds: 0))
            body(&engine)
            engine.giveBack(&data)
            defer { data.changedByApp = false }
            return data.changedByApp
        }
        #expect(call { $0.state.add(pendingRecordZoneChanges: [.saveRecord(milk)]) })
        #expect(engine.lent.original == nil)
        #expect(engine.lent.data.pendingRecordChanges.isEmpty)
        #expect(!call { _ = $0.state.pendingRecordZoneChanges })
        #expect(call { $0.state.remove(pendingRecordZoneChanges: [.saveRecord(milk)]) })
        #expect(!call { _ = $0.state.pendingRecordZoneChanges })
        #expect(data.pendingRecordChanges.isEmpty)
    }

    @Test("handing back a copy of the state kept from an earlier call is a change")
    func replacedByAnEarlierCopy() {
        var data = SyncEngineStateData(account: AccountID(index: 0))
        var kept: SyncEngine.State?
        _ = call(&data) { kept = $0.state }
        _ = call(&data) { $0.state.add(pendingRecordZoneChanges: [.saveRecord(milk)]) }
        // No change is made through the copy in this call: the platform still sees the state go back.
        #expect(call(&data) { $0.state = kept! })
        #expect(data.pendingRecordChanges.isEmpty)
    }
}
