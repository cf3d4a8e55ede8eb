import SyncLabProtocol

/// Another device's deletion of a zone, learnt while a save of this device into the zone was in
/// doubt (durable). Applied once no save into the zone is in doubt any more.
///
/// Until a save in doubt is answered the device cannot tell whether the deletion removed it (the
/// cloud applied it first: the deletion saw it) or not (the edit wins, SPEC §4.3). Applying the
/// deletion to the other records at once showed part of it beside the record it may have removed
/// (records seed 148, `atomicityViolation`); dropping the doubt to re-upload the record brought
/// back a save the deletion had removed (seed 148, `resurrection`). Waiting, the retry goes out as
/// it was and the cloud answers it "deleted" (it remembers the saves a deleted zone had applied)
/// or `zoneNotFound` (never applied: re-uploaded into a new zone).
///
/// A deletion removes one incarnation of the zone: the records this device had of it when it
/// learnt of the deletion, each at the server version it had then. Meanwhile the zone may be
/// created again (by this device after `zoneNotFound`, or by another one) and records of the new
/// zone fetched or saved here; the held deletion must not remove those (records seeds 8425,
/// 8900, 2460 of a first version that held the whole zone), so it names its records and their
/// versions instead of the zone.
public struct HeldZoneDeletion: Hashable, Sendable {
    /// The deleting `zone.delete` write (nil: learnt from `zoneNotFound`, which names none).
    public var write: WriteID?
    /// Per record the deletion removes here, the change tag of the server version this device
    /// had of it when it learnt of the deletion. A record whose server version is another by the
    /// time the deletion applies (fetched or saved in a zone created again since) is not the one
    /// deleted and stays.
    public var versions: [RecordKey: UInt64] = [:]

    public init(write: WriteID?) { self.write = write }
}
