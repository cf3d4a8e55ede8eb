internal import SyncLabProtocol

/// The fields of a record as the cloud sent it, read without converting them all
/// (`SyncRecord(server:)`): shared with the cloud's record, so every device that stores a
/// fetched record holds the cloud's fields instead of a converted copy of its own.
///
/// An existential over the one conforming type (`CloudFields`): `SyncRecord` is public and its
/// layout is computed in its users' modules, which do not see the platform's types
/// (`SyncRecord.swift` imports them `internal`); a stored property of a platform type broke that
/// layout (session 9), a protocol of this module's own keeps it fixed.
protocol CloudFieldsSource: Sendable {
    /// How many fields (all hold a value).
    var fieldCount: Int { get }
    /// The field names, in no particular order.
    var fieldNames: [String] { get }
    /// The value of field `key` as the app reads it (nil: none).
    func fieldValue(forKey key: String) -> ScenarioValue?
    /// When the value of field `key` was made, by the editing device's clock (nil: no field).
    func fieldDate(forKey key: String) -> Duration?
    /// Every field's value as the app reads it.
    var fieldValues: [String: ScenarioValue] { get }
    /// Every field's modification date.
    var fieldDates: [String: Duration] { get }
    /// The cloud's fields as it sent them (read by the platform without a copy; a requirement,
    /// not a cast to `CloudFields`: every device reads back every record it fetched, and a
    /// dynamic cast from the existential costs more than the rest of that reading).
    var storedFields: [String: StoredField] { get }
    /// True when `other` holds the same fields with the same dates (false: not known to).
    func isSame(as other: any CloudFieldsSource) -> Bool
}
