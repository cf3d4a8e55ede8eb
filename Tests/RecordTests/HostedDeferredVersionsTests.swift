import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// A record's label entry keeps the server versions shown to the app as references while the
/// view is exactly a server version (session 15), and applies them only when something else
/// reads or changes its items: whatever reads them must find exactly what applying each version
/// at once gave.
@Suite("Hosted labels: server versions kept, not applied")
struct HostedDeferredVersionsTests {
    static let writer = DeviceID(1)

    /// Version `tag` of record `Z/r` with `fields` (name → (value, write sequence)).
    static func version(_ tag: UInt64, type: String = "Item", existence: UInt32 = 1, _ fields: [String: (Int64, UInt32)]) -> ServerRecord {
        var stored: [String: StoredField] = [:]
        for (name, (value, sequence)) in fields {
            stored[name] = StoredField(value: .int(value), write: WriteID(device: writer, sequence: sequence), modifiedAt: LocalInstant(microseconds: Int64(sequence)))
        }
        return ServerRecord(id: RecordID(zone: "Z", name: "r"), type: type, fields: stored, changeTag: tag,
                            existenceWrite: WriteID(device: writer, sequence: existence), createdAt: LocalInstant(microseconds: 0),
                            modifiedAt: LocalInstant(microseconds: Int64(tag)), creatorDevice: writer, creatorAccount: AccountID(0),
                            lastModifierDevice: writer)
    }

    /// What the platform did before session 15 when a version was shown and then read as it
    /// came: each item remembered, then each item whose view showed another value or write
    /// shows the latest value remembered.
    static func applyPlainly(_ server: ServerRecord, shown: Bool, to entry: inout RecordLabels.RecordEntry) {
        RecordLabels.remember("", RecordLabels.RecordEntry.existenceLabel(of: server), in: &entry)
        for (name, field) in server.fields { RecordLabels.remember(name, RecordLabels.RecordEntry.fieldLabel(field), in: &entry) }
        guard shown else { return }
        entry.changeTag = server.changeTag
        var labels = [("", RecordLabels.RecordEntry.existenceLabel(of: server))]
        for (name, field) in server.fields { labels.append((name, RecordLabels.RecordEntry.fieldLabel(field))) }
        for (name, label) in labels {
            let position = entry.position(of: name)!
            let view = entry.items[position].entry.view
            if view?.value != label.value || view?.write != label.write { entry.items[position].entry.view = entry.items[position].entry.latest }
        }
    }

    /// The items' values shown and views, comparable.
    static func summary(_ entry: RecordLabels.RecordEntry) -> [String] {
        entry.items.map { "\($0.field): \($0.entry.shown) view \(String(describing: $0.entry.view))" }
    }

    @Test("versions kept in the entry read exactly as applied at once, whatever interleaves")
    func keptReadsAsApplied() {
        var random = SeededRandom(seed: 15)
        for _ in 0..<40 {
            var kept = RecordLabels.RecordEntry(), plain = RecordLabels.RecordEntry()
            var tag: UInt64 = 1
            var deferredSteps = 0
            for step in 0..<60 {
                tag += 1
                // Few values and writes, so values and writes come back, and a field comes and goes.
                var fields: [String: (Int64, UInt32)] = ["a": (Int64(random.next() % 3), UInt32(random.next() % 4) + 2)]
                if random.next() % 3 != 0 { fields["b"] = (Int64(random.next() % 3), UInt32(random.next() % 4) + 2) }
                let server = Self.version(tag, fields)
                let roll = random.next() % 10
                // The platform's route: remembered, then read; the anchor set when the view is the version.
                kept.remember(version: server)
                Self.applyPlainly(server, shown: false, to: &plain)
                if roll < 7 {
                    let record = HostedViewRecord(id: server.id, type: server.type, cloudFields: server.fields, changeTag: server.changeTag)
                    if kept.pendingShown(as: record) != nil {
                        kept.changeTag = server.changeTag
                        kept.showPending()
                        deferredSteps += 1
                    } else {
                        // Compared item by item: as `applyPlainly` does, through the items.
                        kept.applyVersions()
                        Self.applyShownOnly(server, to: &kept)
                        kept.anchorIfShown(server)
                    }
                } else if roll < 9 {
                    // Read without being shown (the app kept its own): nothing else happens.
                } else {
                    // The user's edit of field `a`: the items change, the anchor goes.
                    let edit = RecordLabels.Labeled(value: .field(.int(9)), write: WriteID(device: DeviceID(2), sequence: UInt32(step)), modifiedAt: LocalInstant(microseconds: 1))
                    RecordLabels.remember("a", edit, in: &kept)
                    RecordLabels.remember("a", edit, in: &plain)
                    let position = kept.position(of: "a")!
                    kept.items[position].entry.view = edit
                    plain.items[plain.position(of: "a")!].entry.view = edit
                }
                if roll < 7 { Self.applyShownOnly(server, to: &plain) }
                #expect(Self.summary(kept) == Self.summary(plain), "step \(step)")
            }
            #expect(deferredSteps > 0)
        }
    }

    /// `applyPlainly`'s reading alone (the version already remembered).
    static func applyShownOnly(_ server: ServerRecord, to entry: inout RecordLabels.RecordEntry) {
        entry.changeTag = server.changeTag
        var labels = [("", RecordLabels.RecordEntry.existenceLabel(of: server))]
        for (name, field) in server.fields { labels.append((name, RecordLabels.RecordEntry.fieldLabel(field))) }
        // A field the version does not have is read absent: its view goes.
        for position in entry.items.indices where entry.items[position].field != "" && server.fields[entry.items[position].field] == nil {
            if entry.items[position].entry.view != nil { entry.items[position].entry.view = nil }
        }
        for (name, label) in labels {
            let position = entry.position(of: name)!
            let view = entry.items[position].entry.view
            if view?.value != label.value || view?.write != label.write { entry.items[position].entry.view = entry.items[position].entry.latest }
        }
    }

    @Test("a version shown as it came over the view of an earlier one is kept, the items untouched, up to four")
    func keptWithoutTouchingItems() {
        var entry = RecordLabels.RecordEntry()
        let first = Self.version(2, ["a": (1, 2)])
        Self.applyPlainly(first, shown: true, to: &entry)
        entry.anchorIfShown(first)
        #expect(entry.anchor == first)
        let last = 2 + UInt64(RecordLabels.ShownVersions.capacity)
        for tag in UInt64(3)...last {
            let next = Self.version(tag, ["a": (Int64(tag), UInt32(tag))])
            entry.remember(version: next)
            let record = HostedViewRecord(id: next.id, type: next.type, cloudFields: next.fields, changeTag: tag)
            #expect(entry.pendingShown(as: record) != nil)
            entry.changeTag = tag
            entry.showPending()
            #expect(entry.isDeferred && entry.anchor == next)
        }
        // The stored items still show the first version: no fetch touched them.
        #expect(entry.storedItemsForTests.map { $0.entry.view?.value } == [.recordExists(type: "Item"), .field(.int(1))])
        // Read, the items are applied in a copy; the stored ones are where they were.
        #expect(entry.items.map { $0.entry.view?.value } == [.recordExists(type: "Item"), .field(.int(Int64(last)))])
        #expect(entry.isDeferred)
        // One more waiting version applies the four first.
        entry.remember(version: Self.version(last + 1, ["a": (Int64(last) + 1, UInt32(last) + 1)]))
        #expect(entry.isDeferred && entry.pending != nil)
        #expect(entry.storedItemsForTests.map { $0.entry.view?.value } == [.recordExists(type: "Item"), .field(.int(Int64(last)))])
    }

    @Test("not kept: a removed field, no anchor, a version the app does not show as it came, a field the anchor has and the version not")
    func notKept() {
        var entry = RecordLabels.RecordEntry()
        let first = Self.version(2, ["a": (1, 2), "b": (1, 2)])
        // No anchor yet: applied at once.
        entry.remember(version: first)
        #expect(!entry.isDeferred)
        Self.applyShownOnly(first, to: &entry)
        entry.anchorIfShown(first)
        #expect(entry.anchor == first)
        // The anchor's field `b` gone from the next version: compared item by item.
        let next = Self.version(3, ["a": (2, 3)])
        entry.remember(version: next)
        #expect(entry.isDeferred)
        #expect(entry.pendingShown(as: HostedViewRecord(id: next.id, type: next.type, cloudFields: next.fields, changeTag: 3)) == nil)
        // The app shows its own values, not the version's.
        let third = Self.version(4, ["a": (3, 4), "b": (1, 2)])
        entry.remember(version: third)
        #expect(entry.pendingShown(as: HostedViewRecord(id: third.id, type: third.type, fields: ["a": .int(3), "b": .int(1)], changeTag: 4)) == nil)
        // A version removing a field is applied at once.
        var removing = Self.version(5, ["a": (4, 5)]).fields
        removing["b"] = StoredField(value: nil, write: WriteID(device: Self.writer, sequence: 5), modifiedAt: LocalInstant(microseconds: 5))
        let fourth = ServerRecord(id: first.id, type: "Item", fields: removing, changeTag: 5, existenceWrite: first.existenceWrite, createdAt: first.createdAt,
                                  modifiedAt: LocalInstant(microseconds: 5), creatorDevice: Self.writer, creatorAccount: AccountID(0), lastModifierDevice: Self.writer)
        entry.remember(version: fourth)
        #expect(!entry.isDeferred)
        // Any change to the items drops the anchor.
        entry.anchorIfShown(first)
        entry.items[0].entry.view = nil
        #expect(entry.anchor == nil)
    }
}
