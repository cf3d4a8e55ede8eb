import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabSimulation

/// The trace's `kind` and `result` names are spelled out per case; they must stay the enum case
/// names that earlier traces (and the committed Reports/) carry, which reflection used to give.
@Suite("Trace names")
struct TraceNameTests {
    static let write = WriteID(device: DeviceID(0), sequence: 1)
    static let version = DocumentVersion(id: write, parents: [], modifiedAt: LocalInstant(microseconds: 0), author: DeviceID(0),
                                         authorName: "A", body: .deleted)

    static let requests: [ServiceRequest] = [
        .kvs(.upload(calls: [])), .kvs(.fetch(since: nil)),
        .documents(.fetch(since: 0)), .documents(.resolve(path: "p", resolves: [])),
        .documents(.replace(DocumentReplacement(path: "p", replacing: write, chosen: write, resolves: []))),
        .documents(.upload(DocumentUpload(path: "p", version: version, chain: [], base: nil, resolution: nil))),
        .records(.modifyZones(database: .private, saves: [], deletes: [])),
        .records(.modifyRecords(RecordModify(database: .private, saves: [], deletes: [], atomic: false, savePolicy: .allKeys))),
        .records(.fetchDatabaseChanges(database: .private, since: nil)), .records(.fetchZoneChanges(database: .private, zones: [])),
        .records(.queryRecords(database: .public, zone: "z")), .records(.createSubscription(database: .private)),
    ]

    static let responses: [ServiceResponse] = [
        .kvs(.uploaded(accepted: [], rejected: [], superseded: [])), .kvs(.changes([], cursor: 0)),
        .documents(.changes(states: [], cursor: 0)), .documents(.uploaded(version: write, outcome: .accepted, state: nil)),
        .documents(.resolved(path: "p", applied: false, state: nil)),
        .records(.zonesModified(saved: [], deleted: [])), .records(.recordsModified([])),
        .records(.databaseChanges(DatabaseChanges(changedZones: [], deletedZones: [], token: DatabaseChangeToken(epoch: 0, sequence: 0)))),
        .records(.zoneChanges([])), .records(.queryResult(zone: "z", records: [], deleted: [])),
        .records(.subscribed(database: .private)), .records(.failed(.limitExceeded)),
    ]

    /// The case name of the body inside a service enum (`.kvs(.fetch(…))` → `fetch`), by
    /// reflection: the way the names used to be made, as the reference.
    static func reflectedName(_ service: Any) -> String? {
        guard let body = Mirror(reflecting: service).children.first?.value else { return nil }
        return Mirror(reflecting: body).children.first?.label
    }

    @Test func requestKindsAreTheCaseNames() {
        for request in Self.requests {
            #expect(TraceRecorder.caseName(of: request) == Self.reflectedName(request))
        }
    }

    @Test func responseResultsAreTheCaseNamesOrTheTransportError() {
        for response in Self.responses {
            #expect(TraceRecorder.resultName(.ok(response)) == Self.reflectedName(response))
        }
        #expect(TraceRecorder.resultName(.failed(.networkFailure)) == "networkFailure")
        #expect(TraceRecorder.resultName(.failed(.serviceUnavailable(retryAfter: .zero))) == "serviceUnavailable")
    }

    /// Lines copy `kind` and `result` as literals, unescaped (`add(_:identifier:)`): every name
    /// must be letters only, and give the bytes the escaping string path gives.
    @Test func kindsAndResultsAreCopiedAsTheStringPathWritesThem() {
        let results: [ResponseResult] = Self.responses.map { .ok($0) } + [.failed(.networkFailure), .failed(.serviceUnavailable(retryAfter: .zero))]
        let kinds = Self.requests.map { TraceRecorder.caseLiteral(of: $0) }
        for literal in kinds + results.compactMap(TraceRecorder.resultLiteral) {
            #expect(literal.description.allSatisfy { $0.isASCII && $0.isLetter }, "\(literal)")
        }
        func line(_ write: (inout TraceRecorder) -> Void) -> String {
            var recorder = TraceRecorder(enabled: true, deviceNames: ["d0"], accountNames: [])
            recorder.begin(SimInstant(microseconds: 1), .respond, device: 0, store: .kvs)
            write(&recorder)
            recorder.end()
            recorder.flush()
            return String(decoding: recorder.bytes, as: UTF8.self)
        }
        for (request, kind) in zip(Self.requests, kinds) {
            #expect(line { $0.add("kind", identifier: kind) } == line { $0.add("kind", TraceRecorder.caseName(of: request)) })
        }
        for result in results {
            #expect(line { $0.add(result: result) } == line { $0.add("result", TraceRecorder.resultName(result)) })
        }
    }
}
