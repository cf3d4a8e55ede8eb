/// A version of a record that `PolicyRecordsApp` fetched while the user's delete of it was out,
/// not shown: the delete may have removed it, or may have been applied before the record was made
/// again (a re-sent delete the cloud had applied is answered "deleted", with no word of the new
/// record). Once the delete is done, a fetch cycle that begins after that tells which: it brings
/// the record's deletion when the delete removed the version, and nothing of the record when the
/// version was made after the delete — then it shows.
struct WaitingVersion: Hashable, Sendable {
    /// Where the version stands.
    enum Reason: Hashable, Sendable {
        /// The delete is still out.
        case fetchedWhileDeleting
        /// The delete is done: the next fetch tells whether the version outlived it.
        case outlivedDelete
    }

    /// The fetched version.
    var server: SyncRecord
    /// Where it stands.
    var reason: Reason
    /// A fetch cycle began since the delete was done: when it ends with no news of the record,
    /// the version shows.
    var fetchBegun = false
}
