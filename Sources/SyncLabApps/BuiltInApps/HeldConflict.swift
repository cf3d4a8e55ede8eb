/// The server version a `serverRecordChanged` showed `PolicyRecordsApp` for a record in a custom
/// zone, not settled yet: the version may be one record of another device's atomic call, whose
/// other records only a fetch brings. A fetch that names the record settles it with the version
/// it brings; a fetch cycle that begins after the failure and fetches the record's zone without
/// naming it settles it with this version, since the cloud has nothing newer to tell (the
/// engine's token is past it). A cycle that does not fetch the zone (its zone fetch failed, the
/// token expired) tells nothing.
struct HeldConflict: Hashable, Sendable {
    /// The server's version in the failure.
    var server: SyncRecord
    /// A fetch cycle began since the failure.
    var fetchBegun = false
    /// That cycle fetched the record's zone.
    var zoneFetched = false
}
