/// The built-in `merge` records policy: a three-way merge per field against the ancestor
/// (SPEC §4.3). A field changed on one side takes that side's value; changed on both to the
/// same value, it is one value; changed on both to different values, this side's edit wins and
/// the server's value of that field is lost (the checker reports it).
///
/// - Note: SPEC §4.3 says a field changed on both sides takes the later edit by the editing
///   devices' clocks. The public app API gives an app no clock and a `SyncRecord` no per-field
///   modification date, so this app cannot tell which edit was later: it keeps its own (the
///   edit being sent, usually the later). docs/LIBRARY.md lists this among the differences
///   from the engine's built-in `merge`.
public enum MergePolicy: RecordsConflictPolicy {
    /// The server's record with the local edits on top.
    public static func settle(local: SyncRecord, edited: Set<String>, server: SyncRecord, ancestor: SyncRecord?,
                               otherSideChanged: Set<String>) -> (record: SyncRecord, stillToSend: Set<String>) {
        Self.server(server, withLocal: edited, of: local)
    }
}

/// The built-in records app with the `merge` policy, on the public app API.
public typealias MergeRecordsApp = PolicyRecordsApp<MergePolicy>
