import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud

/// The cloud side: last-writer-wins, limits, idempotency, change tracking, isolation.
@Suite struct KVSServiceTests {
    typealias T = KVSTest

    func uploaded(_ response: KVSResponse?) -> (accepted: [WriteID], rejected: [KVSRejection], superseded: [KVSChange]) {
        guard case .uploaded(let accepted, let rejected, let superseded)? = response else {
            Issue.record("expected an upload answer, got \(String(describing: response))")
            return ([], [], [])
        }
        return (accepted, rejected, superseded)
    }

    func changes(_ response: KVSResponse?) -> (changes: [KVSChange], cursor: UInt64) {
        guard case .changes(let changes, let cursor)? = response else {
            Issue.record("expected a changes answer, got \(String(describing: response))")
            return ([], 0)
        }
        return (changes, cursor)
    }

    @Test func laterDeviceTimestampWinsEvenWhenItArrivesFirst() {
        var service = KVSService(configuration: T.configuration())
        let a = T.write(0, 1), b = T.write(1, 1)
        // B's clock says 20 s and its call arrives first; A's (10 s) arrives later and loses.
        _ = T.send(&service, .upload(calls: [T.call(b, [("k", .string("B"))], at: 20)]), device: 1, arrival: 1)
        let late = T.send(&service, .upload(calls: [T.call(a, [("k", .string("A"))], at: 10)]), device: 0, arrival: 2)
        let answer = uploaded(late.response)
        #expect(answer.accepted == [a])
        #expect(answer.superseded == [KVSChange(key: "k", value: .string("B"), write: b, timestamp: T.at(20))])
        #expect(T.lastWriterWins(late.actions) == [T.LWW(key: "k", chosen: b, over: a, rule: "device change timestamp")])
        #expect(T.pushes(late.actions).isEmpty, "nothing changed, so nobody is pushed")
        #expect(service.finalView(account: T.main) == [ViewEntry(item: T.item("k"), value: .kvs(.string("B")), write: b)])
    }

    /// SPEC §4.1: a call is atomic and each key goes to the later timestamp. A `setMany` that
    /// loses one key and would win another changes neither (found by `synclab fuzz --profile
    /// kvs`: under skew, B's call built on A's k1 lost k1 and kept k0, so A showed half of it).
    @Test func aCallThatLosesSomeKeysAndWouldWinOthersChangesNone() {
        var service = KVSService(configuration: T.configuration())
        let a = T.write(0, 1), b = T.write(1, 1)
        _ = T.send(&service, .upload(calls: [T.call(a, [("k1", .string("A"))], at: 30)]), device: 0, arrival: 1)
        let late = T.send(&service, .upload(calls: [T.call(b, [("k0", .string("B0")), ("k1", .string("B1"))], at: 10)]), device: 1, arrival: 2)
        let answer = uploaded(late.response)
        #expect(answer.accepted.isEmpty)
        #expect(answer.rejected == [KVSRejection(write: b, cause: .olderThanCloud(key: "k1"), current: [
            KVSChange(key: "k1", value: .string("A"), write: a, timestamp: T.at(30)),
        ])])
        #expect(T.lastWriterWins(late.actions) == [T.LWW(key: "k1", chosen: a, over: b, rule: "device change timestamp")])
        let discarded = late.actions.compactMap { action -> String? in
            if case .observe(.discarded(let write, let item, _)) = action, write == b { return item.name }
            return nil
        }
        #expect(discarded == ["k0"], "the key it would have won is reported, so the checker explains its loss")
        #expect(T.pushes(late.actions).isEmpty, "nothing changed")
        #expect(service.finalView(account: T.main) == [ViewEntry(item: T.item("k1"), value: .kvs(.string("A")), write: a)])
        // A re-sent copy gets the same answer and reports nothing twice.
        let again = T.send(&service, .upload(calls: [T.call(b, [("k0", .string("B0")), ("k1", .string("B1"))], at: 10)]), device: 1, arrival: 3)
        #expect(uploaded(again.response).rejected.map(\.write) == [b])
        #expect(T.lastWriterWins(again.actions).isEmpty)
    }

    @Test func newerTimestampReplacesAndReportsTheDiscardedWrite() {
        var service = KVSService(configuration: T.configuration())
        let a = T.write(0, 1), b = T.write(1, 1)
        _ = T.send(&service, .upload(calls: [T.call(a, [("k", .string("A"))], at: 10)]), device: 0, arrival: 1)
        let second = T.send(&service, .upload(calls: [T.call(b, [("k", .string("B"))], at: 20)]), device: 1, arrival: 2)
        #expect(uploaded(second.response).superseded.isEmpty)
        #expect(T.lastWriterWins(second.actions) == [T.LWW(key: "k", chosen: b, over: a, rule: "device change timestamp")])
        #expect(T.pushes(second.actions).map(\.1) == [DeviceID(1)], "push to the account's other devices")
    }

    @Test func equalTimestampsGoToTheLaterArrival() {
        var service = KVSService(configuration: T.configuration())
        let a = T.write(0, 1), b = T.write(1, 1)
        _ = T.send(&service, .upload(calls: [T.call(a, [("k", .string("A"))], at: 10)]), device: 0, arrival: 1)
        let second = T.send(&service, .upload(calls: [T.call(b, [("k", .string("B"))], at: 10)]), device: 1, arrival: 2)
        #expect(T.lastWriterWins(second.actions).map(\.chosen) == [b])
        #expect(service.finalView(account: T.main).first?.write == b)
    }

    @Test func serverTimestampsMakeTheLaterArrivalWinWhateverTheDeviceClocksSay() {
        var service = KVSService(configuration: T.configuration(source: .server))
        let a = T.write(0, 1), b = T.write(1, 1)
        _ = T.send(&service, .upload(calls: [T.call(b, [("k", .string("B"))], at: 500)]), device: 1, cloudNow: 1, arrival: 1)
        let second = T.send(&service, .upload(calls: [T.call(a, [("k", .string("A"))], at: 10)]), device: 0, cloudNow: 2, arrival: 2)
        #expect(T.lastWriterWins(second.actions) == [T.LWW(key: "k", chosen: a, over: b, rule: "server arrival order")])
        #expect(service.finalView(account: T.main).first?.write == a)
    }

    @Test func aResentCallIsAppliedOnceWithoutSpuriousDecisions() {
        var service = KVSService(configuration: T.configuration())
        let a = T.write(0, 1), b = T.write(1, 1)
        let call = T.call(a, [("k", .string("A"))], at: 10)
        _ = T.send(&service, .upload(calls: [call]), device: 0, requestID: 1, arrival: 1)
        _ = T.send(&service, .upload(calls: [T.call(b, [("k", .string("B"))], at: 20)]), device: 1, arrival: 2)
        let cursor = changes(T.send(&service, .fetch(since: nil), arrival: 3).response).cursor
        // The first answer was lost; the device sends the same call again.
        let again = T.send(&service, .upload(calls: [call]), device: 0, requestID: 2, arrival: 4)
        #expect(uploaded(again.response).accepted == [a])
        #expect(T.lastWriterWins(again.actions).isEmpty, "a re-send compares nothing")
        #expect(T.pushes(again.actions).isEmpty)
        #expect(changes(T.send(&service, .fetch(since: cursor), arrival: 5).response).changes.isEmpty, "nothing changed")
        #expect(service.finalView(account: T.main).first?.write == b)
    }

    @Test func aCallBreakingALimitOnlyInTheCloudIsRejectedWhole() {
        let limits = KVSLimits(keys: 2)
        var service = KVSService(configuration: T.configuration(limits: limits))
        let a = T.write(0, 1), b = T.write(1, 1)
        // Each device is within 2 keys on its own; together they would hold 3.
        _ = T.send(&service, .upload(calls: [T.call(a, [("a1", .integer(1)), ("a2", .integer(2))], at: 10)]), device: 0, arrival: 1)
        let second = T.send(&service, .upload(calls: [T.call(b, [("b1", .integer(1)), ("a2", .integer(9))], at: 11)]), device: 1, arrival: 2)
        let answer = uploaded(second.response)
        #expect(answer.accepted.isEmpty)
        #expect(answer.rejected == [KVSRejection(write: b, limit: "kvs.keys", current: [
            KVSChange(key: "a2", value: .integer(2), write: a, timestamp: T.at(10)),
        ])])
        #expect(T.lastWriterWins(second.actions).isEmpty, "a rejected call replaces nothing")
        #expect(service.finalView(account: T.main).map(\.item.name) == ["a1", "a2"])
        #expect(service.finalView(account: T.main).last?.write == a, "none of the rejected call's keys changed")
    }

    @Test(arguments: [
        (KVSLimits(totalBytes: 10), "kvs.totalBytes"),
        (KVSLimits(valueBytes: 4), "kvs.valueBytes"),
    ])
    func sizeLimitsAreEnforcedInTheCloud(limits: KVSLimits, name: String) {
        var service = KVSService(configuration: T.configuration(limits: limits))
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 1), [("a", .string("1234"))], at: 1)]), arrival: 1)
        let answer = uploaded(T.send(&service, .upload(calls: [T.call(T.write(1, 1), [("b", .string("12345678"))], at: 2)]), device: 1, arrival: 2).response)
        #expect(answer.rejected.map(\.limit) == [name])
    }

    @Test func removingKeysAlwaysFitsAndFreesSpace() {
        var service = KVSService(configuration: T.configuration(limits: KVSLimits(keys: 1)))
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 1), [("a", .integer(1))], at: 1)]), arrival: 1)
        let answer = uploaded(T.send(&service, .upload(calls: [
            T.call(T.write(0, 2), [("a", nil)], at: 2),
            T.call(T.write(0, 3), [("b", .integer(2))], at: 3),
        ]), arrival: 2).response)
        #expect(answer.accepted == [T.write(0, 2), T.write(0, 3)])
        #expect(service.finalView(account: T.main).map(\.item.name) == ["b"])
    }

    @Test func fetchReturnsEverythingFirstThenOnlyLaterChangesWithTombstones() {
        var service = KVSService(configuration: T.configuration())
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 1), [("b", .integer(1)), ("a", .integer(2))], at: 1)]), arrival: 1)
        let first = changes(T.send(&service, .fetch(since: nil), device: 1, arrival: 2).response)
        #expect(first.changes.map(\.key) == ["a", "b"], "sorted by key")
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 2), [("a", nil)], at: 2)]), arrival: 3)
        let next = changes(T.send(&service, .fetch(since: first.cursor), device: 1, arrival: 4).response)
        #expect(next.changes == [KVSChange(key: "a", value: nil, write: T.write(0, 2), timestamp: T.at(2))])
        #expect(next.cursor > first.cursor)
        #expect(service.finalView(account: T.main).map(\.item.name) == ["b"], "tombstones are not in the final view")
    }

    @Test func aFetchListsEachKeyChangedSinceTheCursorOnceAtItsLatestStateSortedByKey() {
        var service = KVSService(configuration: T.configuration())
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 1), [("z", .integer(1)), ("a", .integer(1))], at: 1)]), arrival: 1)
        let first = changes(T.send(&service, .fetch(since: nil), device: 1, arrival: 2).response)
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 2), [("m", .integer(2)), ("é", .integer(2))], at: 2)]), arrival: 3)
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 3), [("m", .integer(3)), ("b", .integer(3))], at: 3)]), arrival: 4)
        let next = changes(T.send(&service, .fetch(since: first.cursor), device: 1, arrival: 5).response)
        #expect(next.changes == [
            KVSChange(key: "b", value: .integer(3), write: T.write(0, 3), timestamp: T.at(3)),
            KVSChange(key: "m", value: .integer(3), write: T.write(0, 3), timestamp: T.at(3)),
            KVSChange(key: "é", value: .integer(2), write: T.write(0, 2), timestamp: T.at(2)),
        ])
        // The last call applied `m` then `b`: one sequence number back is `b` alone.
        let single = changes(T.send(&service, .fetch(since: next.cursor - 1), device: 1, arrival: 6).response)
        #expect(single.changes.map(\.key) == ["b"])
    }

    @Test func accountsAreIsolated() {
        var service = KVSService(configuration: T.configuration())
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 1), [("k", .integer(1))], at: 1)]), account: T.main, arrival: 1)
        #expect(changes(T.send(&service, .fetch(since: nil), device: 1, account: T.other, arrival: 2).response).changes.isEmpty)
        #expect(service.finalView(account: T.other).isEmpty)
        #expect(service.finalView(account: T.main).count == 1)
    }

    @Test func eachCallOfOneUploadIsDecidedOnItsOwnInOrder() {
        var service = KVSService(configuration: T.configuration(limits: KVSLimits(keys: 1)))
        let answer = uploaded(T.send(&service, .upload(calls: [
            T.call(T.write(0, 1), [("a", .integer(1))], at: 1),
            T.call(T.write(0, 2), [("b", .integer(2))], at: 2),
            T.call(T.write(0, 3), [("a", .integer(3))], at: 3),
        ]), arrival: 1).response)
        #expect(answer.accepted == [T.write(0, 1), T.write(0, 3)])
        #expect(answer.rejected.map(\.write) == [T.write(0, 2)])
        #expect(answer.superseded.isEmpty, "the later call of the same upload owns a")
    }
}
