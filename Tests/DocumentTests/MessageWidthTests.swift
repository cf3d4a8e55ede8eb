import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud

/// Messages, engine actions and cloud actions are copied at every hop of every service, so the
/// large document payloads and observations are boxed: a new wide inline case would make every
/// KVS message pay for it again.
@Suite("Message widths")
struct MessageWidthTests {
    @Test func hotMessageTypesStayNarrow() {
        #expect(MemoryLayout<ServiceRequest>.size <= 32)
        #expect(MemoryLayout<ServiceResponse>.size <= 40)
        #expect(MemoryLayout<RequestEnvelope>.size <= 48)
        #expect(MemoryLayout<ResponseEnvelope>.size <= 56)
        #expect(MemoryLayout<EngineAction>.size <= 40)
        #expect(MemoryLayout<EngineEvent>.size <= 56)
        #expect(MemoryLayout<CloudAction>.size <= 56)
    }

    @Test func boxedCasesKeepTheirPayloads() {
        let write = WriteID(device: DeviceID(index: 1), sequence: 2)
        let version = DocumentVersion(id: write, parents: [], modifiedAt: LocalInstant(microseconds: 3), author: DeviceID(index: 1),
                                      authorName: "B", body: .deleted)
        let upload = DocumentUpload(path: "a.txt", version: version, chain: [version], base: nil, resolution: nil)
        guard case .upload(let carried) = DocumentRequest.upload(upload) else { Issue.record("not an upload"); return }
        #expect(carried == upload)
        let state = DocumentState(path: "a.txt", current: version, conflicts: [], ancestry: [])
        #expect(DocumentResponse.uploaded(version: write, outcome: .accepted, state: state) == .uploaded(version: write, outcome: .accepted, state: state))
        #expect(DocumentResponse.resolved(path: "a.txt", applied: true, state: state) != .resolved(path: "a.txt", applied: false, state: state))
    }
}
