import Testing
import SyncLabProtocol
@testable import SyncLabSimulation

/// A KVS app's read memory: what its writes are built on (their parents), noted cheaply.
struct KVSAppReadMemoryTests {
    func write(_ sequence: UInt32, device: Int32 = 1) -> WriteID { WriteID(device: DeviceID(device), sequence: sequence) }

    @Test("an app that only reads is noted by appending: its per-key memory is built only when its parents are asked")
    func anAppThatOnlyReadsIsNeverFolded() {
        var memory = KVSAppReadMemory()
        for sequence in 1...KVSAppReadMemory.foldAfterNotes { memory.noteReads([(key: "k\(sequence % 10)", write: write(UInt32(sequence)))]) }
        // Reading notes one log entry per notification; nothing per key until the app writes.
        #expect(memory.foldedNotes == 0)
        #expect(memory.parents().count == KVSAppReadMemory.foldAfterNotes)
        #expect(memory.foldedNotes == KVSAppReadMemory.foldAfterNotes)
    }

    @Test("the log is folded once it outgrows the per-key memory, so an app that never writes holds a bounded log")
    func theLogStaysBounded() {
        var memory = KVSAppReadMemory()
        for sequence in 1...(KVSAppReadMemory.foldAfterNotes + 1) { memory.noteReads([(key: "k", write: write(UInt32(sequence)))]) }
        #expect(memory.foldedNotes == KVSAppReadMemory.foldAfterNotes + 1)
    }

    @Test("told how many keys the device's store holds, the log holds 64 notes a key before its first fold, and the parents are the same")
    func theLogHolds64NotesAKeyOfTheStore() {
        var memory = KVSAppReadMemory()
        var folded = KVSAppReadMemory()
        let keys = 10, notes = KVSAppReadMemory.writesPerKey * keys
        #expect(!memory.needsStoreKeys(adding: KVSAppReadMemory.foldAfterNotes))
        #expect(memory.needsStoreKeys(adding: KVSAppReadMemory.foldAfterNotes + 1))
        memory.allowNotes(forKeysInStore: keys)
        #expect(!memory.needsStoreKeys(adding: notes + 1), "asked once")
        for sequence in 1...notes {
            let read = (key: "k\(sequence % keys)", write: write(UInt32(sequence)))
            memory.noteReads([read])
            folded.noteReads([read])
        }
        #expect(memory.foldedNotes == 0)
        #expect(folded.foldedNotes > 0, "not told, the log is folded past 256 notes")
        memory.noteReads([(key: "k0", write: write(UInt32(notes + 1)))])
        folded.noteReads([(key: "k0", write: write(UInt32(notes + 1)))])
        #expect(memory.foldedNotes == notes + 1, "folded once past 64 notes a key")
        #expect(memory.parents() == folded.parents())
    }

    @Test("a key remembers its last 64 writes; a re-read does not renew one, the oldest noted goes first")
    func aKeyRemembersItsLast64WritesOldestNotedFirstOut() {
        var memory = KVSAppReadMemory()
        for sequence in 1...64 { memory.noteReads([(key: "k", write: write(UInt32(sequence)))]) }
        // Read again: already remembered, so not renewed; the next new write evicts it first.
        memory.noteReads([(key: "k", write: write(1))])
        memory.noteReads([(key: "k", write: write(65))])
        #expect(memory.parents() == (2...65).map { write(UInt32($0)) })
        for sequence in 66...200 { memory.noteReads([(key: "k", write: write(UInt32(sequence)))]) }
        #expect(memory.parents() == (137...200).map { write(UInt32($0)) })
    }

    @Test("a write made on the device replaces its key's writes only; the parents are sorted, each once")
    func aWriteMadeHereReplacesItsKeyOnly() {
        var memory = KVSAppReadMemory()
        memory.noteReads([(key: "a", write: write(1)), (key: "b", write: write(2, device: 0))])
        memory.noteReads([(key: "a", write: write(3)), (key: "b", write: write(1))])
        memory.noteMadeHere("a", write(9))
        // Sorted, each write once though two keys showed it.
        #expect(memory.parents() == [write(2, device: 0), write(1), write(9)])
    }
}
