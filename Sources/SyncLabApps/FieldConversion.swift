import Foundation
internal import SyncLabProtocol

/// Record field values between the platform (`FieldValue`) and an app (`ScenarioValue`, written
/// as in scenario files: `"x"`, `1`, `1.5`, `{"$date": …}`, `{"$data": …}`, `{"lat": …, "lon": …}`,
/// `{"$ref": NAME, "action": …}`, `{"$asset": SIZE}`, and lists of one of these).
enum FieldConversion {
    /// The app's value as a record field; nil for what no field can hold (`null`, a bool inside
    /// a list, a malformed object): such a field is not sent, as CloudKit refuses it.
    static func field(_ value: ScenarioValue) -> FieldValue? {
        switch value {
        case .null: return nil
        case .bool(let flag): return .int(flag ? 1 : 0)
        case .integer(let number): return .int(number)
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let elements):
            var list: [FieldValue] = []
            for element in elements {
                guard let field = field(element) else { return nil }
                list.append(field)
            }
            return .list(list)
        case .object(let object):
            func member(_ key: String) -> ScenarioValue? { object.members.first { $0.key == key }?.value }
            if case .string(let text)? = member("$date"), let micros = ISODate.parse(text) { return .date(epochMicroseconds: micros) }
            if case .string(let text)? = member("$data"), let data = Data(base64Encoded: text) { return .bytes(Array(data)) }
            if case .integer(let size)? = member("$asset") { return .asset(sizeBytes: size) }
            if case .string(let name)? = member("$ref") {
                var action = ReferenceAction.none
                if case .string(let text)? = member("action"), let parsed = ReferenceAction(rawValue: text) { action = parsed }
                return .reference(recordName: name, action: action)
            }
            if let latitude = number(member("lat")), let longitude = number(member("lon")) { return .location(latitude: latitude, longitude: longitude) }
            return nil
        }
    }

    /// A record field as the app reads it.
    /// - Note: the forms results write (`ValueJSON` above the simulation), built directly: this
    ///   module sits below the result model.
    static func value(_ field: FieldValue) -> ScenarioValue {
        func object(_ members: [(String, ScenarioValue)]) -> ScenarioValue {
            .object(ScenarioObject(members: members.map { ScenarioMember(key: $0.0, value: $0.1) }))
        }
        switch field {
        case .string(let text): return .string(text)
        case .int(let number): return .integer(number)
        case .double(let number): return .double(number)
        case .bytes(let bytes): return object([("$data", .string(Data(bytes).base64EncodedString()))])
        case .date(let micros): return object([("$date", .string(ISODate.format(epochMicroseconds: micros)))])
        case .location(let latitude, let longitude): return object([("lat", .double(latitude)), ("lon", .double(longitude))])
        case .reference(let name, let action): return object([("$ref", .string(name)), ("action", .string(action.rawValue))])
        case .asset(let size): return object([("$asset", .integer(size))])
        case .list(let elements): return .array(elements.map(value))
        }
    }

    private static func number(_ value: ScenarioValue?) -> Double? {
        switch value {
        case .double(let number)?: return number
        case .integer(let number)?: return Double(number)
        default: return nil
        }
    }
}
