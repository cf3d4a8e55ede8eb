import Testing
import SyncLabProtocol
import SyncLabEngines

/// Which upload goes next is chosen without sorting every path; it must still be the first
/// pending path in UTF-8 order.
@Suite("Documents engine upload order")
struct DocumentUploadOrderTests {
    @Test func pendingDocumentsUploadInUTF8PathOrder() {
        var world = DocumentWorld(devices: ["A", "B"])
        world.run()
        world.setOnline(0, false)
        for (sequence, path) in ["b.txt", "é.txt", "a.txt", "Z.txt", "a.txt.bak"].enumerated() {
            world.save(0, path, "\(path)\n", write: UInt32(sequence + 1))
        }
        world.sentRequests = []
        world.setOnline(0, true)
        world.run()
        let uploaded = world.sentRequests.compactMap { entry -> String? in
            guard entry.device == 0, case .upload(let upload) = entry.1 else { return nil }
            return upload.path
        }
        #expect(uploaded == ["Z.txt", "a.txt", "a.txt.bak", "b.txt", "é.txt"])
    }
}
