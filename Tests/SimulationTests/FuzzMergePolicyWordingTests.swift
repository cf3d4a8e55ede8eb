import Foundation
import Testing

/// `synclab fuzz merge` of a KVS shard and a documents shard said "policies  vs
/// keepVersions,keepBoth,merge": a KVS campaign has no policies, and the list was left blank.
@Suite("synclab fuzz merge names a campaign without policies")
struct FuzzMergePolicyWordingTests {
    @Test("a KVS campaign's policies read (none)")
    func noPoliciesNamed() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kvs = directory.appendingPathComponent("kvs").path, documents = directory.appendingPathComponent("documents").path
        #expect(try Synclab.run(["fuzz", "--profile", "kvs", "--seeds", "1..2", "--jobs", "1", "--shard", "0/2", "--out", kvs]).status != 2)
        #expect(try Synclab.run(["fuzz", "--profile", "documents", "--seeds", "1..2", "--jobs", "1", "--shard", "1/2", "--out", documents]).status != 2)
        let merge = try Synclab.run(["fuzz", "merge", kvs, documents, "--out", directory.appendingPathComponent("m").path])
        #expect(merge.status == 2)
        #expect(merge.stderr.contains("policies (none) vs keepVersions,keepBoth,merge"), "\(merge.stderr)")
    }
}
