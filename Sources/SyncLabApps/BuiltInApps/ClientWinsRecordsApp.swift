/// The built-in `clientWins` records policy: every local field goes onto the server record and
/// is saved again (SPEC §4.3). This overwrites fields the other side changed and this side did
/// not touch but holds another value of: the checker reports those losses.
public enum ClientWinsPolicy: RecordsConflictPolicy {
    /// The server's record with every local field (and every local removal) on top.
    public static func settle(local: SyncRecord, edited: Set<String>, editedAt: [String: Duration], server: SyncRecord, ancestor: SyncRecord?,
                               otherSideChanged: Set<String>) -> (record: SyncRecord, stillToSend: Set<String>) {
        // A field the server has that the local copy never had stays: the local side has no value there.
        let fields = Set(local.allKeys()).union(edited)
        return Self.server(server, withLocal: fields, of: local)
    }
}

/// The built-in records app with the `clientWins` policy, on the public app API.
public typealias ClientWinsRecordsApp = PolicyRecordsApp<ClientWinsPolicy>
