internal import SyncLabProtocol

/// The cloud's fields of a fetched record, as it sent them (`CloudFieldsSource`): the dictionary
/// is the cloud record's own, retained, not copied. Holds no removed field (a record with one
/// is converted instead).
struct CloudFields: CloudFieldsSource {
    let storedFields: [String: StoredField]

    var fieldCount: Int { storedFields.count }
    var fieldNames: [String] { Array(storedFields.keys) }
    func fieldValue(forKey key: String) -> ScenarioValue? { storedFields[key]?.value.map(FieldConversion.value) }
    func fieldDate(forKey key: String) -> Duration? { storedFields[key].map { .microseconds($0.modifiedAt.microseconds) } }
    // `mapValues` copies the hash table (no name hashed again, no table grown).
    var fieldValues: [String: ScenarioValue] { storedFields.mapValues { FieldConversion.value($0.value!) } }
    var fieldDates: [String: Duration] { storedFields.mapValues { .microseconds($0.modifiedAt.microseconds) } }

    func isSame(as other: any CloudFieldsSource) -> Bool {
        // Equal stored fields (the same dictionary, mostly: the same version of a record) have
        // equal values and dates; unequal ones may still differ only by write ids.
        guard let other = other as? CloudFields else { return false }
        return storedFields == other.storedFields
    }
}
