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
/// A deletion removes one incarnation of the zone (the cloud stamps each zone creation with one,
/// carried by every record version and by the deletion notice). Meanwhile the zone may be created
/// again (by this device after `zoneNotFound`, or by another one) and records of the new zone
/// fetched or saved here; the held deletion must not remove those (records seeds 8425, 8900, 2460
/// of a first version that held the whole zone), nor keep a record whose save, in flight when the
/// deletion was learnt, was applied to the deleted zone just before it went (records seed 172).
public struct HeldZoneDeletion: Hashable, Sendable {
    /// The deleting `zone.delete` write (nil: learnt from `zoneNotFound`, which names none).
    public var write: WriteID?
    /// The zone's incarnation the deletion removed: records whose server version is of it (or of
    /// an earlier one) go.
    public var incarnation: UInt64
    /// The records that had a server version when the deletion was learnt: one whose server
    /// version this device has dropped since (its zone found missing) is of the deleted zone.
    public var records: Set<RecordKey> = []

    public init(write: WriteID?, incarnation: UInt64) { self.write = write; self.incarnation = incarnation }
}
