import Testing
import SyncLabResult

/// Session 7 (issue 12): the records `divergence` and `resurrection` findings of the records
/// and mixed campaigns, each as the shrunk scenario that failed before its fix (docs/FUZZING.md,
/// "Session 7: divergence and resurrection findings").
extension FuzzFindingTests {
    @Test("a creation answered with other devices' writes keeps a base, so a delete made before the next fetch goes out (records seed 6514)")
    func deleteOfCreationAnsweredWithOthersWritesGoesOut() throws {
        _ = try run(#"""
        {"format": "synclab/1", "name": "t", "seed": 6514, "network": {"latency": {"dist": "lognormal", "median": "57ms", "sigma": 1.5}, "loss": 0.25}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "C"}, {"id": "E"}], "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"}, {"at": "3ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "E3"}}, {"at": "865ms", "device": "A", "op": "account.signOut"}, {"at": "884ms", "device": "C", "op": "app.delete"}, {"at": "976ms", "device": "E", "op": "airplane.on"}, {"at": "41267ms", "op": "cloud.outage", "for": "29982ms"}, {"at": "41270ms", "device": "C", "op": "app.install"}, {"at": "41290ms", "device": "E", "op": "airplane.off"}, {"at": "41358ms", "device": "A", "op": "account.signIn", "account": "main"}, {"at": "66072ms", "op": "cloud.outage", "for": "67133ms"}, {"at": "66072ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "E2"}}, {"at": "77370ms", "device": "E", "op": "device.crash"}, {"at": "77403ms", "device": "A", "op": "zone.delete", "zone": "Z"}, {"at": "77567ms", "device": "E", "op": "device.restart"}, {"at": "78019ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "C4"}}, {"at": "146939ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "A2"}}, {"at": "255569ms", "device": "C", "op": "record.delete", "zone": "Z", "name": "r1"}], "expect": {"converged": true, "noAnomalies": ["resurrection"]}}
        """#)
    }

    @Test("an app's zone deletion drops the version a save's answer held for the next fetch: it never brings the record back (mixed seed 4811)")
    func zoneDeletionDropsVersionHeldForTheNextFetch() throws {
        _ = try run(#"""
        {"format": "synclab/1", "name": "t", "seed": 4811, "network": {"loss": 0.11}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}, {"id": "E"}], "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"}, {"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B4"}}, {"at": "143541ms", "op": "cloud.outage", "for": "111834ms"}, {"at": "143541ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "143541ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "B3"}}, {"at": "285765ms", "device": "E", "op": "zone.delete", "zone": "Z"}], "expect": {"converged": true, "noAnomalies": ["divergence"], "final": {"records": {}}}}
        """#)
    }

    @Test("the answer to a save sent before the user deleted its zone brings nothing back once the deletion is applied (records seed 5458)")
    func answerAfterZoneDeletionBringsNothingBack() throws {
        _ = try run(#"""
        {"format": "synclab/1", "name": "t", "seed": 5458, "network": {"latency": {"dist": "lognormal", "median": "75ms", "sigma": 1.7}, "reorder": true}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "D"}, {"id": "E"}, {"id": "F"}], "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"}, {"at": "0ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "C5"}}, {"at": "159ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 8}}, {"at": "1443ms", "device": "E", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "11455ms", "device": "F", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "F1"}}, {"at": "11455ms", "device": "F", "op": "app.delete"}, {"at": "11745ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "D3"}}, {"at": "12070ms", "device": "F", "op": "app.install"}, {"at": "12837ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "D2"}}, {"at": "13672ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 9}}, {"at": "14966ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "C1"}}, {"at": "19069ms", "device": "C", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "21433ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B3"}}, {"at": "22364ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B2"}}, {"at": "23302ms", "op": "cloud.expireTokens"}, {"at": "244685ms", "op": "cloud.throttle", "for": "26157ms", "retryAfter": "17901ms"}, {"at": "244685ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "C2"}}, {"at": "246086ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 9}}, {"at": "252882ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 9}}, {"at": "288433ms", "device": "F", "op": "zone.delete", "zone": "Z", "byUser": true}], "expect": {"converged": true, "noAnomalies": ["divergence"]}}
        """#)
    }

    @Test("an app's zone deletion drops the version fetched while a creation was in doubt: the creation's refusal no longer rolls back to it (mixed seed 7656)")
    func zoneDeletionDropsVersionFetchedInDoubt() throws {
        _ = try run(#"""
        {"format": "synclab/1", "name": "t", "seed": 7656, "limits": {"records": {"recordBytes": 205}}, "network": {"loss": 0.15}, "engine": {"documents": {"conflict": "keepVersions"}, "records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}], "steps": [{"at": "71211ms", "device": "B", "op": "kvs.set", "key": "k0", "value": "B3"}, {"at": "151353ms", "op": "cloud.throttle", "for": "6569ms", "retryAfter": "1ms"}, {"at": "151353ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"body": "B1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}, {"at": "153122ms", "device": "A", "op": "zone.delete", "zone": "Z"}, {"at": "160024ms", "device": "C", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r2", "fields": {"title": "C1", "body": "C1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}, {"type": "Note", "name": "r0", "fields": {"title": "C1", "body": "C1"}}]}], "expect": {"converged": true, "noAnomalies": ["atomicityViolation", "divergence"]}}
        """#)
    }

    @Test("a zone deletion fetched while this device's creation of the zone was answered is checked by fetching the zone, not applied (mixed seed 8982)")
    func zoneDeletionOlderThanOwnCreationIsNotApplied() throws {
        _ = try run(#"""
        {"format": "synclab/1", "name": "t", "seed": 8982, "network": {"latency": {"dist": "pareto", "scale": "49ms", "shape": 1.3}, "loss": 0.22, "reorder": true}, "engine": {"documents": {"conflict": "keepBoth"}, "records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "C"}, {"id": "F"}, {"id": "G"}, {"id": "H"}], "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"}, {"at": "0ms", "device": "C", "op": "zone.delete", "zone": "Z", "byUser": true}, {"at": "7270ms", "op": "cloud.outage", "for": "41277ms"}, {"at": "7270ms", "device": "G", "op": "airplane.on"}, {"at": "37884ms", "device": "G", "op": "airplane.off"}, {"at": "38288ms", "op": "cloud.outage", "for": "79689ms"}, {"at": "38288ms", "device": "G", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 6}}, {"at": "38296ms", "device": "A", "op": "kvs.set", "key": "k0", "value": 85}, {"at": "38343ms", "device": "C", "op": "doc.save", "path": "note1.txt", "content": "v\n"}, {"at": "38508ms", "device": "F", "op": "doc.save", "path": "note1.txt", "content": "v\n\n"}, {"at": "181832ms", "device": "H", "op": "kvs.set", "key": "k0", "value": "H1"}], "expect": {"converged": true, "noAnomalies": ["divergence"]}}
        """#)
    }

    @Test("a delete after a delete and a save of a record whose creation is still in doubt goes out: the creation may be in the cloud (mixed seed 8474)")
    func deleteAfterDeleteAndSaveOfCreationInDoubtGoesOut() throws {
        _ = try run(#"""
        {"format": "synclab/1", "name": "t", "seed": 8474, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}], "steps": [{"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 5}}, {"at": "220ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "220ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B"}}, {"at": "220ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}], "expect": {"converged": true, "noAnomalies": ["resurrection"], "final": {"records": {}}}}
        """#)
    }

    @Test("a delete discarded at sign-out leaves its record and fields shown by no write: a record made and deleted while signed out has not seen the version that comes back (mixed seed 8474)")
    func discardedDeleteLeavesNothingShown() throws {
        for text in [#"""
        {"format": "synclab/1", "name": "t", "seed": 8474, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}], "steps": [{"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 5}}, {"at": "358ms", "op": "cloud.throttle", "for": "81ms", "retryAfter": "1ms"}, {"at": "358ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "358ms", "device": "B", "op": "account.signOut"}, {"at": "358ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B"}}, {"at": "358ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "409ms", "device": "B", "op": "account.signIn", "account": "main"}], "expect": {"converged": true, "noAnomalies": ["resurrection"]}}
        """#, #"""
        {"format": "synclab/1", "name": "t", "seed": 8474, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}], "steps": [{"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B"}}, {"at": "220ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "220ms", "device": "B", "op": "account.signOut"}, {"at": "220ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B11"}}, {"at": "220ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "220ms", "device": "B", "op": "account.signIn", "account": "main"}], "expect": {"converged": true, "noAnomalies": ["resurrection"]}}
        """#] {
            _ = try run(text)
        }
    }

    @Test("a delete and a save made while the record's creation is in doubt remove, once the creation is answered saved, the fields the delete had removed (mixed seed 8474 without its last delete)")
    func deleteAndSaveOverCreationInDoubtRemoveItsFields() throws {
        _ = try run(#"""
        {"format": "synclab/1", "name": "t", "seed": 8474, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}], "steps": [{"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 5}}, {"at": "220ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "220ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B"}}], "expect": {"converged": true, "noAnomalies": ["resurrection"], "final": {"records": {"Z/r0": {"body": "B", "n": null}}}}}
        """#)
    }

    @Test("a delete discarded by app deletion leaves its record shown by no write: a record made and deleted after the reinstall has not seen the version that comes back (the sign-out shape of mixed seed 8474, hand-written)")
    func deleteDiscardedByAppDeletionLeavesNothingShown() throws {
        _ = try run(#"""
        {"format": "synclab/1", "name": "t", "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}], "steps": [{"at": "0s", "device": "B", "op": "zone.create", "zone": "Z"}, {"at": "1s", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 1}}, {"at": "5s", "device": "B", "op": "airplane.on"}, {"at": "6s", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "7s", "device": "B", "op": "app.delete"}, {"at": "8s", "device": "B", "op": "app.install"}, {"at": "9s", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 2}}, {"at": "10s", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "20s", "device": "B", "op": "airplane.off"}], "expect": {"converged": true, "noAnomalies": ["resurrection"]}}
        """#)
    }
}
