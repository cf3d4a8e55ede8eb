import SyncLabProtocol

extension RecordLabels {
    /// One record's items: its existence (field `""`) and its fields, each with its entry, in the
    /// order first remembered. A record holds few fields: a scan of their names costs less than
    /// hashing them, so an item is found with one hash per record (the hot paths remember and
    /// compare a fetched record's items together).
    ///
    /// Server versions shown as they came are kept as references, not applied item by item
    /// (session 15): every device is shown every version the cloud sends, and applying one
    /// wrote the record's items and their earlier values, a device's own memory read cold at
    /// 1,000 devices. While the view is exactly a server version's values and writes (`anchor`),
    /// a newly fetched version is only noted (`pending`), and when the app then shows it as it
    /// came, the reading compares the two versions (shared by every device, in the cache) and
    /// notes it shown (`shownVersions`, up to four). The items are what applying each of those versions in
    /// turn, as the reading would have, gives: `items` applies them before any other reading or
    /// change, so nothing else sees the difference (the same labels, the same answers).
    struct RecordEntry: Sendable {
        /// The items with every version before `shownVersions` applied.
        private var storedItems: [(field: String, entry: Entry)] = []
        /// The change tag of the record as the app showed it at the last reading that compared it
        /// whole (nil: one the app made, never saved); meaningful while its existence has a view.
        var changeTag: UInt64?
        /// A server version whose values and writes are exactly what the user sees of the record:
        /// its existence and every field it has (each with that value and write) and nothing
        /// else (nil: not known to be one). Set by a reading; any change of the items drops it.
        private(set) var anchor: ServerRecord?
        /// A server version remembered as shown to the app (`rememberServer`), not yet applied.
        private(set) var pending: ServerRecord?
        /// Versions shown to the app and then read in its view as they came (`showPending`),
        /// oldest first, not yet applied: each is remembered, then every item whose value or
        /// write the view showed otherwise shows it.
        private var shownVersions = ShownVersions()

        /// An entry showing nothing, with change tag `changeTag`.
        init(changeTag: UInt64? = nil) { self.changeTag = changeTag }

        /// The items as stored, without the versions kept (for tests: what a fetch touched).
        var storedItemsForTests: [(field: String, entry: Entry)] { storedItems }

        /// Whether versions are kept here that the stored items do not have yet.
        var isDeferred: Bool { pending != nil || !shownVersions.isEmpty }

        /// The items, every version kept applied: read, a copy with them applied (the stored
        /// items untouched); changed, applied first in place, and the anchor dropped (the view
        /// may change).
        var items: [(field: String, entry: Entry)] {
            get {
                guard isDeferred else { return storedItems }
                var applied = self
                applied.applyVersions()
                return applied.storedItems
            }
            _modify {
                applyVersions()
                anchor = nil
                yield &storedItems
            }
        }

        /// Applies the versions kept (`shownVersions`, then `pending`) to the stored items, in
        /// the order they were shown, as `remember(version:)` and the reading would have. The
        /// anchor stays: applying them changes nothing the user sees.
        mutating func applyVersions() {
            guard isDeferred else { return }
            for index in 0..<shownVersions.count {
                let version = shownVersions[index]
                RecordEntry.remember(version, in: &storedItems)
                RecordEntry.show(version, in: &storedItems)
            }
            shownVersions = ShownVersions()
            if let pending {
                RecordEntry.remember(pending, in: &storedItems)
                self.pending = nil
            }
        }

        /// Remembers server version `server` as shown to the app: noted while the anchor holds
        /// (`pending`), else applied at once.
        mutating func remember(version server: ServerRecord) {
            guard anchor != nil, !RecordEntry.removesAField(server) else {
                applyVersions()
                RecordEntry.remember(server, in: &storedItems)
                return
            }
            // One version waits to be read at a time, and only so many are kept.
            if pending != nil || shownVersions.isFull { applyVersions() }
            pending = server
        }

        /// The version remembered and not yet read (`pending`) and the anchor, when the app
        /// shows `record` and that is exactly the pending version, a new one (not the change
        /// tag the record showed), none of whose fields is removed, holding every field the
        /// anchor has: then the reading can compare the two versions (`showPending`) instead
        /// of the items.
        /// (Mutating only to be read where it lies: a copy out of the label dictionary would
        /// retain the items' buffer, a cold line at 1,000 devices.)
        mutating func pendingShown(as record: HostedViewRecord) -> (anchor: ServerRecord, pending: ServerRecord)? {
            guard let anchor, let pending, let tag = record.changeTag, tag == pending.changeTag, tag != changeTag,
                  record.type == pending.type, record.showsEvery(ofValued: pending.fields) else { return nil }
            let fields = pending.fields
            for name in anchor.fields.keys where RecordEntry.field(name, of: fields) == nil { return nil }
            return (anchor, pending)
        }

        /// `fields[name]`, the names compared in turn when there are few (a record holds few
        /// fields: cheaper than hashing the name, on every device shown the version).
        static func field(_ name: String, of fields: [String: StoredField]) -> StoredField? {
            guard fields.count <= HostedViewRecord.fieldScanLimit else { return fields[name] }
            for (key, field) in fields where key == name { return field }
            return nil
        }

        /// The reading found the app showing the pending version as it came (`pendingShown`):
        /// it is the view now, kept to be applied with the others.
        mutating func showPending() {
            guard let pending else { return }
            shownVersions.append(pending)
            anchor = pending
            self.pending = nil
        }

        /// Keeps `server` as the anchor if the items show exactly its values and writes (its
        /// existence and every field, nothing else); read after a reading compared the record.
        mutating func anchorIfShown(_ server: ServerRecord) {
            guard !RecordEntry.removesAField(server) else { return }
            applyVersions()
            let fields = server.fields
            var shownFields = 0
            for index in storedItems.indices {
                let field = storedItems[index].field
                let view = RecordEntry.item(index, of: storedItems, \.entry.view)
                if field.isEmpty {
                    guard let view, view.value == .recordExists(type: server.type), view.write == server.existenceWrite else { return }
                } else if let stored = fields[field] {
                    guard let view, view.write == stored.write, let value = stored.value, view.value == .field(value) else { return }
                    shownFields += 1
                } else if view != nil {
                    return
                }
            }
            guard shownFields == fields.count, storedItems.contains(where: { $0.field.isEmpty }) else { return }
            anchor = server
        }

        /// The label of `server`'s existence as the platform remembers it shown.
        static func existenceLabel(of server: ServerRecord) -> Labeled {
            Labeled(value: .recordExists(type: server.type), write: server.existenceWrite, modifiedAt: server.createdAt, fromCloud: true)
        }

        /// The label of a server record's field as the platform remembers it shown.
        static func fieldLabel(_ field: StoredField) -> Labeled {
            Labeled(value: field.value.map { .field($0) } ?? .absent, write: field.write, modifiedAt: field.modifiedAt, fromCloud: true)
        }

        /// Whether `server` removes a field (one with no value).
        static func removesAField(_ server: ServerRecord) -> Bool { server.fields.values.contains { $0.value == nil } }

        /// Remembers `server`'s values as shown: its existence, then each field in the fields'
        /// dictionary order (the order new items are added in).
        private static func remember(_ server: ServerRecord, in items: inout [(field: String, entry: Entry)]) {
            RecordEntry.remember("", existenceLabel(of: server), in: &items)
            for (name, field) in server.fields { RecordEntry.remember(name, fieldLabel(field), in: &items) }
        }

        /// What a reading does to the items of a record the app shows as `server`, remembered
        /// just before: every item of it whose value or write the view showed otherwise shows
        /// the latest value remembered (the version's). (The anchor before it held every other
        /// item absent, and every item of it too when it held all of `server`'s fields.)
        private static func show(_ server: ServerRecord, in items: inout [(field: String, entry: Entry)]) {
            func show(_ field: String, _ label: Labeled) {
                guard let position = RecordEntry.position(of: field, in: items) else { return }
                let view = items[position].entry.view
                if view?.value == label.value && view?.write == label.write { return }
                items[position].entry.view = items[position].entry.latest
            }
            show("", existenceLabel(of: server))
            for (name, field) in server.fields { show(name, fieldLabel(field)) }
        }

        /// `RecordLabels.remember` on the stored items.
        private static func remember(_ field: String, _ labeled: Labeled, in items: inout [(field: String, entry: Entry)]) {
            let index = position(of: field, in: items) ?? {
                items.append((field, Entry()))
                return items.count - 1
            }()
            items[index].entry.add(labeled)
        }

        /// The position of field `field` in `items`, nil when never remembered.
        private static func position(of field: String, in items: [(field: String, entry: Entry)]) -> Int? {
            items.withUnsafeBufferPointer { items in
                for index in items.indices where RecordEntry.item(index, of: items, \.field).pointee == field { return index }
                return nil
            }
        }

        /// Calls `body` with the items, every version applied, read in place when none waits.
        private func withItems<Result>(_ body: (UnsafeBufferPointer<(field: String, entry: Entry)>) -> Result) -> Result {
            guard isDeferred else { return storedItems.withUnsafeBufferPointer(body) }
            return items.withUnsafeBufferPointer(body)
        }

        /// The position of field `field` (`""`: the existence), nil when never remembered.
        func position(of field: String) -> Int? {
            withItems { items in
                for index in items.indices where RecordEntry.item(index, of: items, \.field).pointee == field { return index }
                return nil
            }
        }

        /// The entry of field `field`, nil when never remembered.
        func entry(_ field: String) -> Entry? { position(of: field).map { items[$0].entry } }

        /// What the user sees of field `field` (`""`: the existence; nil: absent), read in place.
        func view(_ field: String) -> Labeled? { position(of: field).flatMap(view(at:)) }

        /// What the user sees of the item at `position`, read in place.
        func view(at position: Int) -> Labeled? {
            withItems { RecordEntry.item(position, of: $0, \.entry.view).pointee }
        }

        /// The latest value the item at `position` was shown, read in place.
        func latest(at position: Int) -> Labeled? {
            withItems { RecordEntry.item(position, of: $0, \.entry.latest).pointee }
        }

        /// Calls `body` with each field (not the existence) the user sees, in the order first
        /// remembered, reading the entries in place.
        func forEachFieldShown(_ body: (String) -> Void) {
            withItems { items in
                for index in items.indices where RecordEntry.item(index, of: items, \.entry.view).pointee != nil {
                    let field = RecordEntry.item(index, of: items, \.field).pointee
                    if !field.isEmpty { body(field) }
                }
            }
        }

        /// A pointer to one part of the item at `index`. Reading an item's part through the
        /// array (or the buffer's subscript) copies the whole item first, retaining its list of
        /// earlier values: with 1,000 devices that list is out of the cache, and touching it was
        /// a cache miss per item read.
        @inline(__always)
        private static func item<Part>(_ index: Int, of items: UnsafeBufferPointer<(field: String, entry: Entry)>,
                                       _ part: KeyPath<(field: String, entry: Entry), Part>) -> UnsafePointer<Part> {
            (items.baseAddress! + index).pointer(to: part)!
        }

        /// `item(_:of:_:)` on an array.
        @inline(__always)
        private static func item<Part>(_ index: Int, of items: [(field: String, entry: Entry)],
                                       _ part: KeyPath<(field: String, entry: Entry), Part>) -> Part {
            items.withUnsafeBufferPointer { item(index, of: $0, part).pointee }
        }

        /// The position of field `field`, added empty when never remembered.
        mutating func positionAdding(_ field: String) -> Int {
            if let index = position(of: field) { return index }
            items.append((field, Entry()))
            return items.count - 1
        }
    }

    /// Up to four server versions (`capacity`), oldest first, kept in the record's entry itself
    /// (no object of its own: one more per record per device would be one more cold line per
    /// fetch). Eight cost 7 MB more at 1,000 devices and no CPU (session 15).
    struct ShownVersions: Sendable {
        private var first, second, third, fourth: ServerRecord?

        static let capacity = 4

        var isEmpty: Bool { first == nil }
        var isFull: Bool { fourth != nil }
        /// (Counted, not kept: a byte more would make the entry 80 bytes, not 72.)
        var count: Int { first == nil ? 0 : second == nil ? 1 : third == nil ? 2 : fourth == nil ? 3 : 4 }

        subscript(index: Int) -> ServerRecord {
            switch index {
            case 0: return first!
            case 1: return second!
            case 2: return third!
            default: return fourth!
            }
        }

        /// Adds `version` as the newest (not full).
        mutating func append(_ version: ServerRecord) {
            if first == nil { first = version } else if second == nil { second = version } else if third == nil { third = version } else { fourth = version }
        }
    }
}
