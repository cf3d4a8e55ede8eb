import Testing
@testable import SyncLabApps
import SyncLabEngines
import SyncLabProtocol

/// The app keeps every state serialization it is told of (two a fetch on every device): one is
/// now a single reference to the state it holds, which never changes.
@Suite("A state serialization is one reference to the state it holds")
struct SyncEngineSerializationTests {
    @Test("a serialization is one reference wide, so keeping one is one retain")
    func oneReferenceWide() {
        #expect(MemoryLayout<SyncEngine.State.Serialization>.size == MemoryLayout<AnyObject>.size)
        #expect(MemoryLayout<SyncEngine.State.Serialization?>.size == MemoryLayout<AnyObject>.size)
    }

    @Test("it holds the state as it was given, whatever the state becomes; equal states are equal")
    func holdsTheStateGiven() {
        var data = SyncEngineStateData(account: AccountID(index: 0))
        data.add([.save(RecordID(zone: "Todos", name: "milk"))])
        let kept = SyncEngine.State.Serialization(data: data)
        let again = SyncEngine.State.Serialization(data: data)
        data.add([.delete(RecordID(zone: "Todos", name: "eggs"))])
        #expect(kept.data.pendingRecordChanges == [.save(RecordID(zone: "Todos", name: "milk"))])
        #expect(kept == again && kept.hashValue == again.hashValue)
        #expect(kept != SyncEngine.State.Serialization(data: data))
    }
}
