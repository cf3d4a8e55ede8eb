import Testing
import SyncLab

/// The same document content saved on two devices that never saw each other (session 13,
/// spec22): the cloud takes the second as identical, so neither lost anything.
@Suite struct DocumentSameContentTests {
    @Test("two devices that create a document offline with the same text, then edit it on, lose nothing: what was built on one was built on that text")
    func theSameTextSavedTwiceIsNotALostUpdate() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "Two devices create the same document offline", "seed": 39, "engine": {"documents": {"conflict": "merge"}}, "devices": [{"id": "A", "online": false}, {"id": "B", "online": false}], "steps": [{"at": "1s", "device": "A", "op": "doc.save", "path": "todo.txt", "content": "same\n"}, {"at": "2s", "device": "B", "op": "doc.save", "path": "todo.txt", "content": "same\n"}, {"at": "10s", "device": "A", "op": "airplane.off"}, {"at": "20s", "device": "B", "op": "airplane.off"}, {"at": "40s", "device": "*", "op": "assert", "documents": {"todo.txt": "same\n"}}, {"at": "50s", "device": "*", "op": "airplane.on"}, {"at": "51s", "device": "A", "op": "doc.append", "path": "todo.txt", "text": "A\n"}, {"at": "52s", "device": "B", "op": "doc.save", "path": "todo.txt", "content": "B\nsame\n"}, {"at": "60s", "device": "A", "op": "airplane.off"}, {"at": "70s", "device": "B", "op": "airplane.off"}]}
        """#).run()
        // Before: B:1 ("same", answered identical) was a lostUpdate, "A:1 replaced it without having seen it".
        #expect(result.metrics.lostUpdates == 0, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }

    @Test("saving back a text the device had seen replaced, over the edit it saw, is still a lost update when a concurrent edit wins")
    func savingBackAnOlderTextIsStillItsOwnChange() throws {
        // B sees A's "two" replace "one", saves "one" again offline; A meanwhile saves "three"
        // built on "two". lastWriterWins keeps A's later save: B's revert is lost although its
        // text is in the history that survives (A's "one", which B had seen).
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "revert lost", "seed": 3, "engine": {"documents": {"conflict": "lastWriterWins"}},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "one\n"},
           {"at": "10s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "two\n"},
           {"at": "20s", "device": "B", "op": "airplane.on"},
           {"at": "21s", "device": "B", "op": "doc.save", "path": "n.txt", "content": "one\n"},
           {"at": "22s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "three\n"},
           {"at": "30s", "device": "B", "op": "airplane.off"}]}
        """#).run()
        #expect(result.anomalies.contains { $0.kind == "lostUpdate" && $0.write == "B:1" }, "\(result.anomalies)")
    }

    @Test("a draft its own device replaced before saving the text another device's already is was not lost (documents seed 1956)")
    func aDraftReplacedOnItsDeviceBeforeTheSameTextIsNotLost() throws {
        // B, offline, saves "draft" then "" over it; A had created the note "". The cloud takes
        // B's upload as identical to A's: B's "" survives by its content, and with it what B's
        // "" was built on. Before: B:1 was a lostUpdate, "A:1 replaced it without having seen it".
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "draft", "seed": 1956, "engine": {"documents": {"conflict": "keepBoth"}},
         "devices": [{"id": "A"}, {"id": "B", "online": false}],
         "steps": [
           {"at": "0s", "device": "A", "op": "doc.save", "path": "todo.txt", "content": ""},
           {"at": "1s", "device": "B", "op": "doc.save", "path": "todo.txt", "content": "draft\n"},
           {"at": "2s", "device": "B", "op": "doc.save", "path": "todo.txt", "content": ""},
           {"at": "10s", "device": "B", "op": "airplane.off"}]}
        """#).run()
        #expect(result.metrics.lostUpdates == 0, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }

    @Test("a draft replaced on its device still counts as lost when the text replacing it loses: identical content saves only what it was built on")
    func aDraftUnderALosingTextIsStillLost() throws {
        // As above, but B's last text differs from A's and loses under lastWriterWins (A saves
        // later): B's draft and B's text are both lost. The fix must not save them.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "draft lost", "seed": 1956, "engine": {"documents": {"conflict": "lastWriterWins"}},
         "devices": [{"id": "A"}, {"id": "B", "online": false}],
         "steps": [
           {"at": "1s", "device": "B", "op": "doc.save", "path": "todo.txt", "content": "draft\n"},
           {"at": "2s", "device": "B", "op": "doc.save", "path": "todo.txt", "content": "B\n"},
           {"at": "3s", "device": "A", "op": "doc.save", "path": "todo.txt", "content": ""},
           {"at": "10s", "device": "B", "op": "airplane.off"}]}
        """#).run()
        #expect(result.anomalies.contains { $0.kind == "lostUpdate" && $0.write == "B:2" }, "\(result.anomalies)")
    }

    @Test("an empty append whose content is a surviving merge's is not lost, though the merge is an engine's write (documents seed 1169)")
    func anEmptyAppendWithAMergesContentIsNotLost() throws {
        // A's merge was a repeat of C's (same text) whose answer was lost; A then appended
        // nothing, and its upload was answered identical to C's merge, on which D built the
        // final text. Before: A:3 lost, "C:m1 replaced it without having seen it" (the content
        // was looked for among user writes only).
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "An empty append after a merge another device's identical merge beat", "description": "t", "seed": 1169, "network": {"latency": {"dist": "uniform", "min": "10ms", "max": "145ms"}, "loss": 0.13}, "engine": {"documents": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "D"}], "steps": [{"at": "0ms", "device": "A", "op": "doc.append", "path": "note0.txt", "text": "A\n"}, {"at": "0ms", "device": "D", "op": "doc.save", "path": "note0.txt", "content": {"$size": "1KB"}}, {"at": "33433ms", "device": "B", "op": "doc.append", "path": "note0.txt", "text": "B\n"}, {"at": "64218ms", "device": "A", "op": "doc.save", "path": "note0.txt", "content": "v\n"}, {"at": "64218ms", "device": "C", "op": "doc.append", "path": "note0.txt", "text": "C\n"}, {"at": "102668ms", "device": "A", "op": "doc.append", "path": "note0.txt", "text": ""}, {"at": "147384ms", "device": "D", "op": "doc.save", "path": "note0.txt", "content": ""}]}
        """#).run()
        #expect(!result.anomalies.contains { $0.kind == "lostUpdate" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }
}
