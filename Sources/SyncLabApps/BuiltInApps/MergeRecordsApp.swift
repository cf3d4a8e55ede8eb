/// The built-in `merge` records policy: a three-way merge per field against the ancestor
/// (SPEC §4.3). A field changed on one side takes that side's value; changed on both to the
/// same value, it is one value; changed on both to different values, it takes the later edit by
/// the editing devices' clocks, as the engine's `merge` does: this side's edit time
/// (`SyncEngine.now` when the user made it) against the server's value's
/// (`modificationDate(forKey:)`), and the other side's value is lost (the checker reports it).
///
/// - Note: Equal times keep this side's edit. The engine breaks that tie by the writes'
///   device ids, which the public API does not show; docs/LIBRARY.md lists it among the
///   differences. A field with no known time on either side keeps this side's edit too.
public enum MergePolicy: RecordsConflictPolicy {
    /// The server's record with the local edits on top, except those the server changed later.
    public static func settle(local: SyncRecord, edited: Set<String>, editedAt: [String: Duration], server: SyncRecord, ancestor: SyncRecord?,
                               otherSideChanged: Set<String>) -> (record: SyncRecord, stillToSend: Set<String>) {
        var kept = edited
        for name in edited.intersection(otherSideChanged) {
            guard let mine = editedAt[name], let theirs = server.modificationDate(forKey: name) else { continue }
            if theirs > mine { kept.remove(name) }
        }
        return Self.server(server, withLocal: kept, of: local)
    }

    /// Field by field: a record of an atomic action whose edits all lost to later ones does not
    /// withdraw the rest of the action (the engine's `merge` sends it).
    public static var withdrawsAtomicActionOnLoss: Bool { false }
}

/// The built-in records app with the `merge` policy, on the public app API.
public typealias MergeRecordsApp = PolicyRecordsApp<MergePolicy>
