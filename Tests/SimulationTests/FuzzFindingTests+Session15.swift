import Testing
import SyncLabJSON
@testable import SyncLabSimulation
import SyncLabRunner

/// Findings of `synclab fuzz` campaigns past seed 10,000 (session 15, fix35).
extension FuzzFindingTests {
    @Test("the version a refusal carries for a save the same answer took back waits for the fetch (records seed 34369)")
    func refusalOfTakenBackSaveWaitsForFetch() throws {
        // A's atomic call (r2 over the size limit, r0) is refused whole: r2 for the limit, which
        // takes the call back on both records, and r0 with serverRecordChanged carrying F:1's
        // version. A used to show that version of r0 at once, r1 of the same call only with the
        // next fetch.
        let body = String(repeating: "x", count: 300)
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 34369, "limits": {"records": {"recordBytes": 250}}, "engine": {"records": {"conflict": "merge"}},
         "devices": [{"id": "A"}, {"id": "F"}],
         "steps": [{"at": "0ms", "device": "F", "op": "airplane.on"},
                   {"at": "0ms", "device": "A", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r2", "fields": {"body": "\(body)"}}, {"type": "Note", "name": "r0", "fields": {"title": "A2", "n": 6}}]},
                   {"at": "0ms", "device": "F", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r1", "fields": {"title": "F1"}}, {"type": "Note", "name": "r0", "fields": {"title": "F1"}}]}],
         "expect": {"converged": true, "quotaViolations": 1, "noAnomalies": ["atomicityViolation", "lostUpdate", "divergence"],
                    "final": {"records": {"Z/r0": {"title": "F1"}, "Z/r1": {"title": "F1"}, "Z/r2": null}}}}
        """)
        let visible = try Harness.events(try #require(judged.first)).filter { $0.event == "visible" && $0.string("device") == "A" && $0.string("write") == "F:1" }
        let r0 = try #require(visible.first { $0.string("item") == "Z/r0" })
        let r1 = try #require(visible.first { $0.string("item") == "Z/r1" })
        #expect(r0.time == r1.time)
    }
}

extension FuzzFindingTests {
    @Test("a zone fetch answered zoneNotFound from before this device made the zone again is not applied (mixed seed 17248)")
    func staleZoneNotFoundAfterZoneMadeAgain() throws {
        // A's zone fetch reached the cloud while Z was gone (A had deleted it) and was answered,
        // on a slow reordering link, after A made Z again and its save of r0 there was
        // acknowledged: A used to drop r0 (the assert fails), and in the fuzz run diverged.
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "engine": {"records": {"conflict": "merge"}},
         "devices": [{"id": "A", "network": {"pushLoss": 1, "reorder": true}}, {"id": "B"}],
         "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"},
                   {"at": "2s", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B"}},
                   {"at": "3000ms", "device": "A", "op": "app.foreground"},
                   {"at": "3010ms", "device": "A", "op": "zone.delete", "zone": "Z"},
                   {"at": "3010ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 1}},
                   {"at": "3045ms", "device": "A", "op": "network.set", "latency": "100ms"},
                   {"at": "3055ms", "device": "A", "op": "network.set", "latency": "50ms"},
                   {"at": "3195ms", "device": "A", "op": "network.set", "latency": "500ms"},
                   {"at": "3205ms", "device": "A", "op": "network.set", "latency": "50ms"},
                   {"at": "3750ms", "device": "A", "op": "assert", "records": {"Z/r0": {"n": 1}}}],
         "expect": {"converged": true, "noAnomalies": ["divergence"], "final": {"records": {"Z/r0": {"n": 1}}}}}
        """)
        // The answer came, was not applied: A never showed r0 removed after showing it saved.
        let removals = try Harness.events(try #require(judged.first)).filter {
            $0.event == "visible" && $0.string("device") == "A" && $0.string("item") == "Z/r0" && $0.string("cause") == "fetch" && $0.string("write") == nil
        }
        #expect(removals.isEmpty)
    }
}

extension FuzzFindingTests {
    /// B's save of r0 in doubt; E's atomic call E:2 over r0 and r1, then E:3 over r0 alone.
    private static func snapshotScenario(bComesBackAt: String?) -> String {
        let back = bComesBackAt.map { #", {"at": "\#($0)", "device": "B", "op": "airplane.off"}"# } ?? ""
        return """
        {"format": "synclab/1", "name": "t", "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}, {"id": "E"}],
         "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"},
                   {"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B1"}},
                   {"at": "198ms", "device": "B", "op": "airplane.on"},
                   {"at": "383ms", "device": "E", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"body": "E4"}}, {"type": "Note", "name": "r1", "fields": {"body": "E4"}}]},
                   {"at": "383ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "E1"}}\(back)],
         "expect": {"converged": true, "noAnomalies": ["atomicityViolation", "lostUpdate", "divergence"], "final": {"records": {"Z/r0": {"body": "E1"}, "Z/r1": {"body": "E4"}}}}}
        """
    }

    /// When B first shows r1 with E:2 and r0 with E:3.
    private func firstShown(_ judged: [ScenarioRunner.Judged]) throws -> (r1: Int64, r0: Int64) {
        let visible = try Harness.events(try #require(judged.first)).filter { $0.event == "visible" && $0.string("device") == "B" }
        let r1 = try #require(visible.first { $0.string("item") == "Z/r1" && $0.string("write") == "E:2" })
        let r0 = try #require(visible.first { $0.string("item") == "Z/r0" && $0.string("write") == "E:3" })
        return (r1.time, r0.time)
    }

    @Test("a fetch answer that brings a version of a record in doubt shows none of its records before that record's answer (records seed 20490)")
    func fetchAnswerWaitsWholeWithRecordInDoubt() throws {
        // B's fetch after coming back brings r0 with E:3 (waits: B's save of r0 is in doubt) and
        // r1 with E:2; they share no write. r1 used to show at once, beside r0's B1.
        let shown = try firstShown(try run(Self.snapshotScenario(bComesBackAt: "2s")))
        #expect(shown.r1 >= shown.r0)
    }

    @Test("a held version waits while a record of its fetch waits for the next fetch (records seed 23842)")
    func heldVersionWaitsWithRefetchedRecord() throws {
        // r1 (E:2) is held with r0's E:2 version; r0 is fetched again with E:3 and, after its
        // save's answer, waits for the next fetch: r1 used to show at that answer, before r0.
        let shown = try firstShown(try run(Self.snapshotScenario(bComesBackAt: nil)))
        #expect(shown.r1 >= shown.r0)
    }
}

extension FuzzFindingTests {
    @Test("a save refused after its version was fetched in doubt waits for the fetch when the same answer held another record's version for it (records seed 42833)")
    func refusalMetInDoubtWaitsWithHeldAnswer() throws {
        // H's saves of r0 and r1 are in doubt when its fetch brings both with C:3. The re-sent
        // request saves r0 (its version waits for the next fetch) and refuses r1: r1's conflict
        // used to be resolved at once against the fetched version, showing C:3 before r0 did.
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 42833, "network": {"latency": {"dist": "lognormal", "median": "42ms", "sigma": 1.7}, "loss": 0.11}, "engine": {"records": {"conflict": "merge"}},
         "devices": [{"id": "B"}, {"id": "C"}, {"id": "H"}],
         "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"},
                   {"at": "0ms", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r1", "fields": {"title": "B1"}}]},
                   {"at": "32047ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"body": "C3"}},
                   {"at": "139760ms", "op": "cloud.throttle", "for": "52137ms", "retryAfter": "10176ms"},
                   {"at": "170845ms", "device": "H", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 8}},
                   {"at": "206013ms", "device": "H", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "H3"}},
                   {"at": "237056ms", "device": "C", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r1", "fields": {"body": "C1"}}, {"type": "Note", "name": "r0", "fields": {"title": "C1", "body": "C1", "n": 5}}]},
                   {"at": "243136ms", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"title": "B2", "body": "B2"}}]}],
         "expect": {"converged": true, "noAnomalies": ["atomicityViolation", "divergence"]}}
        """)
        let visible = try Harness.events(try #require(judged.first)).filter { $0.event == "visible" && $0.string("device") == "H" && $0.string("write") == "C:3" }
        let r0 = try #require(visible.first { $0.string("item") == "Z/r0" })
        let r1 = try #require(visible.first { $0.string("item") == "Z/r1" })
        #expect(r0.time == r1.time)
    }
}

extension FuzzFindingTests {
    @Test("a call taken back puts a field back to the device's acknowledged save, not to the value from before it (records seed 52063)")
    func takenBackCallRestoresAcknowledgedSave() throws {
        // C:4 (r1's title and body) is acknowledged by a re-sent save's answer where B's later
        // save holds the body; C:5 over r1 and r0 is then refused for the batch limit. r1's body
        // used to go back to C:3's value beside C:4's title.
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 52063, "limits": {"records": {"batch": 1}}, "network": {"latency": {"dist": "uniform", "min": "15ms", "max": "156ms"}, "loss": 0.19},
         "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}],
         "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"},
                   {"at": "405ms", "device": "B", "op": "app.delete"},
                   {"at": "409ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "C1"}},
                   {"at": "431ms", "device": "B", "op": "app.install"},
                   {"at": "504ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "C5"}},
                   {"at": "81737ms", "op": "cloud.throttle", "for": "74198ms", "retryAfter": "24052ms"},
                   {"at": "101875ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"body": "A3"}},
                   {"at": "152872ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "C6", "body": "C6"}},
                   {"at": "184513ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "B"}},
                   {"at": "211886ms", "device": "C", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r1", "fields": {"title": "C4", "body": "C4"}}, {"type": "Note", "name": "r0", "fields": {"title": "C4"}}]}],
         "expect": {"converged": true, "quotaViolations": 1, "noAnomalies": ["atomicityViolation", "lostUpdate", "divergence"]}}
        """)
        let rollback = try Harness.events(try #require(judged.first)).filter {
            $0.event == "visible" && $0.string("device") == "C" && $0.string("cause") == "rollback" && $0.string("item") == "Z/r1"
        }
        #expect(!rollback.isEmpty)
        #expect(rollback.allSatisfy { $0.string("write") == "C:4" })
    }
}

extension FuzzFindingTests {
    @Test("a save's zoneNotFound answered after the device fetched the zone made again does not drop that zone's records (records seed 43386)")
    func staleSaveZoneNotFoundAfterZoneMadeAgain() throws {
        // C's save of r2 reached the cloud while Z was gone; its answer came after C fetched Z
        // made again (with B's r1) from scratch: C used to drop r1 for good (a divergence).
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "engine": {"records": {"conflict": "merge"}},
         "devices": [{"id": "A"}, {"id": "B"}, {"id": "C", "network": {"pushLoss": 1, "reorder": true}}],
         "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"},
                   {"at": "1s", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "B1"}},
                   {"at": "2s", "device": "C", "op": "app.foreground"},
                   {"at": "5s", "device": "A", "op": "zone.delete", "zone": "Z"},
                   {"at": "5500ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"n": 1}},
                   {"at": "5520ms", "device": "C", "op": "network.set", "latency": "2s"},
                   {"at": "5560ms", "device": "C", "op": "network.set", "latency": "50ms"},
                   {"at": "6s", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "B2"}},
                   {"at": "6500ms", "device": "C", "op": "app.foreground"}],
         "expect": {"converged": true, "noAnomalies": ["divergence"], "final": {"records": {"Z/r1": {"body": "B2"}, "Z/r2": {"n": 1}}}}}
        """)
        // The answer is read as one about the zone the fetch found deleted.
        let skipped = try Harness.events(try #require(judged.first)).filter { $0.event == "log" && $0.string("device") == "C" && $0.string("event") == "answerAfterZoneDeleted" }
        #expect(!skipped.isEmpty)
    }
}

extension FuzzFindingTests {
    @Test("a fetch of the zone made again leaves a save in doubt to its answer (records seed 41164)")
    func completeFetchLeavesSaveInDoubtToItsAnswer() throws {
        // E's save of r2 (E:5) was applied and its answer lost; D deleted Z having seen it and B
        // made Z again. E's fetch of Z from scratch left r2 out: E used to re-upload r2 as a new
        // record (a conflict "record gone from the cloud"), bringing E:5 back beside D:2's other
        // removals.
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 41164, "network": {"latency": {"dist": "uniform", "min": "13ms", "max": "112ms"}, "loss": 0.17}, "engine": {"records": {"conflict": "merge"}},
         "devices": [{"id": "B"}, {"id": "D"}, {"id": "E"}],
         "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"},
                   {"at": "3053ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 0}},
                   {"at": "3321ms", "device": "D", "op": "device.crash"},
                   {"at": "3322ms", "device": "D", "op": "device.restart"},
                   {"at": "61956ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"body": "B5"}},
                   {"at": "62187ms", "device": "D", "op": "account.signOut"},
                   {"at": "111308ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"body": "E1"}},
                   {"at": "111308ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "E2"}},
                   {"at": "174451ms", "device": "D", "op": "account.signIn", "account": "main"},
                   {"at": "174451ms", "device": "B", "op": "account.signOut"},
                   {"at": "174451ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 3}},
                   {"at": "207536ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"n": 2}},
                   {"at": "222092ms", "device": "D", "op": "zone.delete", "zone": "Z"},
                   {"at": "222092ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 7}},
                   {"at": "247600ms", "device": "B", "op": "account.signIn", "account": "main"}],
         "expect": {"converged": true, "noAnomalies": ["atomicityViolation", "divergence"]}}
        """)
        let reuploads = try Harness.events(try #require(judged.first)).filter {
            $0.event == "conflict" && $0.string("device") == "E" && $0.string("item") == "Z/r2" && $0.string("detail") == "record gone from the cloud"
        }
        #expect(reuploads.isEmpty)
    }
}
