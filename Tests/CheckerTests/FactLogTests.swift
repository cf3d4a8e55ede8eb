import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory

/// `FactLog`: facts read back in order across chunks, and recording never moves a fact already kept.
struct FactLogTests {
    private func fact(_ number: Int) -> FactRecord {
        FactRecord(batch: number, at: SimInstant(microseconds: Int64(number)), device: DeviceID(index: number % 3), kind: .accountChanged(AccountID(0)))
    }

    @Test func factsReadBackInOrderAcrossChunks() {
        var log = FactLog()
        let total = 2 * 65_536 + 5
        for number in 0..<total { log.append(fact(number)) }
        #expect(log.count == total)
        #expect(log.chunks.count == 3)
        #expect(log.chunks.dropLast().allSatisfy { $0.count == 65_536 })
        #expect(log.indices.allSatisfy { log[$0].batch == $0 })
        #expect(log.last?.batch == total - 1)
        #expect(Array(log.map(\.batch).prefix(3)) == [0, 1, 2])
    }

    @Test func aFullChunkIsNeverMovedAndTheNextIsReservedWhole() {
        var log = FactLog()
        for number in 0..<65_537 { log.append(fact(number)) }
        let second = log.chunks[1].withUnsafeBufferPointer { $0.baseAddress }
        #expect(log.chunks[1].capacity >= 65_536)
        for number in 65_537..<(2 * 65_536) { log.append(fact(number)) }
        #expect(log.chunks[1].withUnsafeBufferPointer { $0.baseAddress } == second)
    }
}
