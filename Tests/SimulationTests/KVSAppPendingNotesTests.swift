import Testing
import SyncLabProtocol
import SyncLabEngines
@testable import SyncLabSimulation

/// The KVS apps' notes held for all devices at once: handed over grouped by device, each
/// device's in the order they came (the order its memory folds them in).
struct KVSAppPendingNotesTests {
    func write(_ sequence: UInt32, device: Int32 = 1, derived: Bool = false) -> WriteID {
        WriteID(device: DeviceID(device), sequence: sequence, derived: derived)
    }

    @Test("notes are handed over grouped by device, each device's in the order noted")
    func groupedByDeviceInOrder() {
        var pending = KVSAppPendingNotes()
        _ = pending.noteReads([KVSAppRead(key: "a", write: write(1)), KVSAppRead(key: "b", write: write(2))], device: 2)
        _ = pending.noteReads([KVSAppRead(key: "a", write: write(3))], device: 0)
        _ = pending.noteMadeHere("a", write(4, derived: true), device: 2)
        _ = pending.noteReads([KVSAppRead(key: "c", write: write(5))], device: 2)
        _ = pending.noteReads([KVSAppRead(key: "d", write: write(6))], device: 0)
        let (order, ends) = KVSAppPendingNotes.orderByDevice(pending.notes, devices: 3)
        let taken = order.map { pending.notes[Int($0)] }
        #expect(ends == [2, 2, 6])
        #expect(taken.map(\.device) == [0, 0, 2, 2, 2, 2])
        #expect(taken.map(\.note.key) == ["a", "d", "a", "b", "a", "c"])
        #expect(taken.map(\.note.write) == [write(3), write(6), write(1), write(2), write(4, derived: true), write(5)])
        #expect(taken.map(\.note.madeHere) == [false, false, false, false, true, false])
    }

    @Test("the buffer asks to be flushed once it holds its bound")
    func asksForAFlushWhenFull() {
        var pending = KVSAppPendingNotes()
        for sequence in 1..<KVSAppPendingNotes.flushAfterNotes {
            let full = pending.noteReads([KVSAppRead(key: "k", write: write(UInt32(sequence)))], device: 0)
            #expect(!full)
        }
        let full = pending.noteReads([KVSAppRead(key: "k", write: write(0))], device: 0)
        #expect(full)
    }

    @Test("a memory given a device's notes in a batch gives the parents of noting them one by one")
    func batchedNotesGiveTheSameParents() {
        var pending = KVSAppPendingNotes()
        var direct = KVSAppReadMemory()
        for sequence in 1...300 {
            let read = (key: "k\(sequence % 7)", write: write(UInt32(sequence), device: Int32(sequence % 3)))
            if sequence % 50 == 0 {
                _ = pending.noteMadeHere(read.key, read.write, device: 0)
                direct.noteMadeHere(read.key, read.write)
            } else {
                _ = pending.noteReads([KVSAppRead(key: read.key, write: read.write)], device: 0)
                direct.noteReads([read])
            }
        }
        var batched = KVSAppReadMemory()
        let order = KVSAppPendingNotes.orderByDevice(pending.notes, devices: 3).order
        // In runs, as the platform hands them over (`note(_:at:)` of a run of the ordered notes).
        pending.notes.withUnsafeBufferPointer { notes in
            batched.note(notes, at: order[0..<100])
            batched.note(notes, at: order[100...])
        }
        #expect(batched.parents() == direct.parents())
    }

    @Test("a long log handed over in runs across its chunks gives the parents of noting each note as it came, and holds room for at most one chunk more")
    func runsAcrossChunksGiveTheSameParents() {
        var pending = KVSAppPendingNotes()
        var direct = KVSAppReadMemory()
        let count = 1_300
        for sequence in 1...count {
            // Five keys, each read with more than 64 writes, so the oldest are evicted.
            let read = (key: "k\(sequence % 5)", write: write(UInt32(sequence), device: Int32(sequence % 3)))
            _ = pending.noteReads([KVSAppRead(key: read.key, write: read.write)], device: 1)
            direct.noteReads([read])
        }
        var batched = KVSAppReadMemory()
        batched.allowNotes(forKeysInStore: 100)
        let order = KVSAppPendingNotes.orderByDevice(pending.notes, devices: 2).order
        pending.notes.withUnsafeBufferPointer { notes in
            // Runs ending inside a chunk, at a chunk's end, across one, and of one note.
            for (start, end) in [(0, 100), (100, 256), (256, 257), (257, 700), (700, count)] { batched.note(notes, at: order[start..<end]) }
        }
        #expect(batched.foldedNotes == 0)
        #expect(batched.logCapacity >= count && batched.logCapacity < count + KVSAppReadMemory.chunkNotes,
                "room for \(batched.logCapacity) notes: one array doubled to 2,048")
        #expect(batched.parents() == direct.parents())
        #expect(batched.parents().count == 5 * KVSAppReadMemory.writesPerKey)
    }
}
