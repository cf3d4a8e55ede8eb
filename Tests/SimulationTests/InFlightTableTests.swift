import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabSimulation

/// The in-flight table stands in for a `[RequestKey: InFlightRequest]`; it must answer as one.
@Suite("In-flight table")
struct InFlightTableTests {
    static func request(_ boot: UInt32, _ deadline: Int64) -> InFlightRequest {
        InFlightRequest(boot: boot, deadline: SimInstant(microseconds: deadline))
    }

    @Test func keysDifferingInDeviceStoreOrIDAreDistinct() {
        var table = InFlightTable(deviceCount: 2)
        #expect(table.isEmpty)
        table[RequestKey(device: 0, store: .kvs, requestID: 1)] = Self.request(0, 10)
        table[RequestKey(device: 1, store: .kvs, requestID: 1)] = Self.request(1, 11)
        table[RequestKey(device: 0, store: .records, requestID: 1)] = Self.request(2, 12)
        table[RequestKey(device: 0, store: .kvs, requestID: 2)] = Self.request(3, 13)
        #expect(table.count == 4)
        #expect(table[RequestKey(device: 1, store: .kvs, requestID: 1)]?.boot == 1)
        #expect(table[RequestKey(device: 0, store: .records, requestID: 1)]?.boot == 2)
        #expect(table[RequestKey(device: 1, store: .documents, requestID: 1)] == nil)
        table[RequestKey(device: 0, store: .kvs, requestID: 1)] = Self.request(5, 20)
        #expect(table.count == 4, "replacing is not adding")
        #expect(table[RequestKey(device: 0, store: .kvs, requestID: 1)]?.deadline == SimInstant(microseconds: 20))
        #expect(table.removeValue(forKey: RequestKey(device: 0, store: .kvs, requestID: 1))?.boot == 5)
        #expect(table.removeValue(forKey: RequestKey(device: 0, store: .kvs, requestID: 1)) == nil)
        table[RequestKey(device: 0, store: .kvs, requestID: 9)] = nil
        #expect(table.count == 3)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomOperationsMatchADictionary(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var table = InFlightTable(deviceCount: 3)
        var reference: [RequestKey: InFlightRequest] = [:]
        for step in 0..<3_000 {
            let key = RequestKey(device: Int32(random.next() % 3), store: Store.allCases[Int(random.next() % 3)], requestID: random.next() % 6)
            switch random.next() % 3 {
            case _ where step % 97 == 96:
                // A crash forgets the device's requests (an inline one and any others).
                table.removeAll(device: key.device)
                reference = reference.filter { $0.key.device != key.device }
            case 0:
                let request = Self.request(UInt32(step), Int64(step))
                table[key] = request; reference[key] = request
            case 1:
                #expect(table.removeValue(forKey: key)?.boot == reference.removeValue(forKey: key)?.boot)
            default:
                #expect(table[key]?.boot == reference[key]?.boot)
            }
            #expect(table.count == reference.count)
            #expect(table.isEmpty == reference.isEmpty)
        }
    }
}
