/// The built-in `serverWins` records policy: on a conflict the local edit is dropped and the
/// server's record kept (SPEC §4.3).
public enum ServerWinsPolicy: RecordsConflictPolicy {
    /// The server's record, nothing left to send.
    public static func settle(local: SyncRecord, edited: Set<String>, editedAt: [String: Duration], server: SyncRecord, ancestor: SyncRecord?,
                               otherSideChanged: Set<String>) -> (record: SyncRecord, stillToSend: Set<String>) {
        (server, [])
    }
}

/// The built-in records app with the `serverWins` policy, on the public app API: a team can
/// register it under a name of its own, or read it as an example of a careful delegate.
public typealias ServerWinsRecordsApp = PolicyRecordsApp<ServerWinsPolicy>
