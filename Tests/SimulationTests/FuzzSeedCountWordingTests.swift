import Foundation
import Testing

/// A one-seed campaign said "1 seeds (1..1)", and its merge "1 seeds from 2 shard(s)".
@Suite("synclab fuzz counts seeds in the right number", .serialized)
struct FuzzSeedCountWordingTests {
    @Test("one seed: '1 seed (1..1)' and a merge's '1 seed from'; two seeds stay plural")
    func singularAndPlural() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let common = ["fuzz", "--profile", "kvs", "--find", "isolationViolation", "--jobs", "1"]
        let one = try Synclab.run(common + ["--seeds", "1..1", "--out", directory.appendingPathComponent("one").path])
        #expect(one.stdout.contains("1 seed (1..1)") && !one.stdout.contains("1 seeds"), "\(one.stdout)")
        let two = try Synclab.run(common + ["--seeds", "1..2", "--out", directory.appendingPathComponent("two").path])
        #expect(two.stdout.contains("2 seeds (1..2)"), "\(two.stdout)")
        let shards = (0..<2).map { directory.appendingPathComponent("s\($0)").path }
        for (index, shard) in shards.enumerated() {
            _ = try Synclab.run(common + ["--seeds", "1..1", "--shard", "\(index)/2", "--out", shard])
        }
        let merge = try Synclab.run(["fuzz", "merge"] + shards + ["--out", directory.appendingPathComponent("merged").path])
        #expect(merge.stdout.contains("1 seed from 2 shard(s)"), "\(merge.stdout)\(merge.stderr)")
    }
}
