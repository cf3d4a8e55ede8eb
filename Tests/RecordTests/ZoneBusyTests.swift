import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud

/// `cloud.throttle` with a zone: the front door refuses record requests about that zone only.
@Suite struct ZoneBusyTests {
    private func cloudWithBusyNotes() -> Cloud {
        var cloud = Cloud(configuration: CloudConfiguration(accountCount: 1, limits: Limits(), settings: EngineSettings(), environment: .development),
                          deviceCount: 1)
        cloud.faults.busyZones.append(ZoneBusyFault(zone: "Notes", until: SimInstant(microseconds: 30_000_000), retryAfter: .seconds(20)))
        return cloud
    }

    private func answer(_ cloud: inout Cloud, _ body: RecordRequest, at seconds: Int64) -> ResponseResult? {
        var actions: [CloudAction] = [], logs: [LogFields] = []
        let request = RequestEnvelope(requestID: 1, device: DeviceID(index: 0), account: AccountID(0), body: .records(body))
        cloud.handle(request, trueNow: SimInstant(microseconds: seconds * 1_000_000), clock: LocalInstant(microseconds: seconds * 1_000_000), actions: &actions, logs: &logs)
        for action in actions { if case .respond(let response) = action { return response.result } }
        return nil
    }

    private func isZoneBusy(_ result: ResponseResult?) -> Bool {
        if case .ok(.records(.failed(.zoneBusy(let after))))? = result { return after == .seconds(20) }
        return false
    }

    @Test func requestsAboutTheBusyZoneGetZoneBusyWithItsRetryAfter() {
        var cloud = cloudWithBusyNotes()
        let save = RecordSave(id: RecordID(zone: "Notes", name: "n1"), type: "Note", fields: [:], baseTag: nil,
                              existenceWrite: WriteID(device: DeviceID(index: 0), sequence: 1))
        let modify = RecordModify(database: .private, saves: [save], deletes: [], atomic: false, savePolicy: .ifServerRecordUnchanged)
        #expect(isZoneBusy(answer(&cloud, .modifyRecords(modify), at: 10)))
        #expect(isZoneBusy(answer(&cloud, .fetchZoneChanges(database: .private, zones: [ZoneFetch(zone: "Notes", token: nil)]), at: 10)))
        #expect(isZoneBusy(answer(&cloud, .queryRecords(database: .public, zone: "Notes"), at: 10)))
    }

    @Test func otherZonesTheDatabaseFeedAndLaterRequestsGoThrough() {
        var cloud = cloudWithBusyNotes()
        #expect(!isZoneBusy(answer(&cloud, .modifyZones(database: .private, saves: ["Tags"], deletes: []), at: 10)))
        #expect(!isZoneBusy(answer(&cloud, .fetchZoneChanges(database: .private, zones: [ZoneFetch(zone: "Tags", token: nil)]), at: 10)))
        #expect(!isZoneBusy(answer(&cloud, .fetchDatabaseChanges(database: .private, since: nil), at: 10)))
        #expect(!isZoneBusy(answer(&cloud, .fetchZoneChanges(database: .private, zones: [ZoneFetch(zone: "Notes", token: nil)]), at: 30)))
    }
}
