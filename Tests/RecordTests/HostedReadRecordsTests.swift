import Testing
@testable import SyncLabEngines
import SyncLabProtocol
import SyncLabKernel

/// The records one reading of a hosted app's view compared whole: a short list scanned by name
/// (a reading mostly compares one or two records), with a dictionary of positions once it holds
/// more than `scanLimit`, so a reading that compares everything never scans a long list.
@Suite("The records a reading of a hosted app's view compared whole")
struct HostedReadRecordsTests {
    static func record(_ name: String) -> HostedViewRecord {
        HostedViewRecord(id: RecordID(zone: "Z", name: name), type: "T", fields: ["n": .string(name)])
    }

    @Test("set, read, replace and remove by name, below and past the scan limit")
    func readsAsADictionary() {
        for count in [1, HostedReadRecords.scanLimit, HostedReadRecords.scanLimit + 1, 3 * HostedReadRecords.scanLimit] {
            var read = HostedReadRecords()
            #expect(read.isEmpty)
            for index in 0..<count { read["Z/r\(index)"] = Self.record("r\(index)") }
            for index in 0..<count { #expect(read["Z/r\(index)"]?.id.name == "r\(index)") }
            #expect(read["Z/other"] == nil)
            // Replaced in place, and removed: a later lookup finds the new record or none.
            read["Z/r0"] = Self.record("again")
            #expect(read["Z/r0"]?.id.name == "again")
            read["Z/r\(count - 1)"] = nil
            #expect(read["Z/r\(count - 1)"] == nil)
            // Set again after its removal.
            read["Z/r\(count - 1)"] = Self.record("back")
            #expect(read["Z/r\(count - 1)"]?.id.name == "back")
            // Removing a name never set adds nothing.
            read["Z/never"] = nil
            #expect(read["Z/never"] == nil)
            read["Z/late"] = Self.record("late")
            #expect(read["Z/late"]?.id.name == "late")
        }
    }

    @Test("a record read whole keeps its position, its fields are read in place, and the fields it no longer shows are kept with it")
    func positionsAndAbsentFields() {
        for count in [1, HostedReadRecords.scanLimit + 2] {
            var read = HostedReadRecords()
            var positions: [Int] = []
            for index in 0..<count { positions.append(read.set(Self.record("r\(index)"), for: "Z/r\(index)")) }
            #expect(positions == Array(0..<count))
            for index in 0..<count {
                #expect(read.position(of: "Z/r\(index)") == index)
                #expect(read.record(at: index)?.id.name == "r\(index)")
                #expect(read.shows(field: "n", at: index))
                #expect(!read.shows(field: "other", at: index))
                #expect(read.absentFields(at: index).isEmpty)
            }
            read.noteAbsent("gone", at: 0)
            read.noteAbsent("old", at: 0)
            read.noteAbsent("gone", at: 0)
            #expect(read.absentFields(at: 0) == ["gone", "old", "gone"])
            // Read again: the same position, nothing noted absent any more.
            #expect(read.set(Self.record("again"), for: "Z/r0") == 0)
            #expect(read.absentFields(at: 0).isEmpty)
            #expect(read.record(at: 0)?.id.name == "again")
            // Removed in this reading: no position (its items are compared apart, as gone).
            read["Z/r0"] = nil
            #expect(read.position(of: "Z/r0") == nil)
            #expect(read.position(of: "Z/never") == nil)
            // Read once more after its removal: found at its old entry.
            read["Z/r0"] = Self.record("back")
            #expect(read.position(of: "Z/r0") == 0)
        }
    }

    @Test("a record read whole shows every field of a server record's (all valued) when it shows the very fields the cloud sent")
    func showsEveryServerField() {
        let fields: [String: StoredField] = [
            "a": StoredField(value: .int(1), write: WriteID(device: DeviceID(0), sequence: 1), modifiedAt: LocalInstant(microseconds: 1)),
            "b": StoredField(value: .string("x"), write: WriteID(device: DeviceID(1), sequence: 2), modifiedAt: LocalInstant(microseconds: 2)),
        ]
        var read = HostedReadRecords()
        let shared = read.set(HostedViewRecord(id: RecordID(zone: "Z", name: "s"), type: "T", cloudFields: fields, changeTag: 3), for: "Z/s")
        #expect(read.showsEvery(ofValued: fields, at: shared))
        // Other fields (one more, one fewer): not shown, or not known to be.
        var more = fields
        more["c"] = StoredField(value: .int(2), write: WriteID(device: DeviceID(0), sequence: 4), modifiedAt: LocalInstant(microseconds: 4))
        #expect(!read.showsEvery(ofValued: more, at: shared))
        #expect(!read.showsEvery(ofValued: fields.filter { $0.key == "a" }, at: shared))
        // The app's own values: not known to be the cloud's (each field is compared apart).
        let own = read.set(HostedViewRecord(id: RecordID(zone: "Z", name: "o"), type: "T", fields: ["a": .int(1), "b": .string("x")], changeTag: 3), for: "Z/o")
        #expect(!read.showsEvery(ofValued: fields, at: own))
    }

    @Test("a record shows a field exactly when it has a value for it, whether its names are compared in turn or hashed")
    func showsFieldAsTheSubscript() {
        for count in [0, 1, HostedViewRecord.fieldScanLimit, HostedViewRecord.fieldScanLimit + 3] {
            var values: [String: FieldValue] = [:]
            var stored: [String: StoredField] = [:]
            for index in 0..<count {
                values["f\(index)"] = .int(Int64(index))
                // Every other cloud field removed (no value): not shown.
                stored["f\(index)"] = StoredField(value: index % 2 == 0 ? .int(Int64(index)) : nil,
                                                  write: WriteID(device: DeviceID(0), sequence: UInt32(index + 1)), modifiedAt: LocalInstant(microseconds: Int64(index)))
            }
            let own = HostedViewRecord(id: RecordID(zone: "Z", name: "o"), type: "T", fields: values)
            let cloud = HostedViewRecord(id: RecordID(zone: "Z", name: "c"), type: "T", cloudFields: stored, changeTag: 1)
            // Canonically equal names are the same field, as for the dictionary's own lookup.
            for name in (0..<(count + 2)).map({ "f\($0)" }) + ["", "F0", "e\u{301}", "é"] {
                #expect(own.shows(field: name) == (own[field: name] != nil), "\(count) fields, \(name)")
                #expect(cloud.shows(field: name) == (cloud[field: name] != nil), "\(count) fields, \(name)")
            }
        }
        let accented = HostedViewRecord(id: RecordID(zone: "Z", name: "a"), type: "T", fields: ["é": .int(1)])
        #expect(accented.shows(field: "e\u{301}") == (accented[field: "e\u{301}"] != nil))
    }
}
