import Foundation
package import SyncLabProtocol

/// Scenario-file values to property-list values: the reverse of how traces write them.
package enum PlistConversion {
    /// nil for `null` (not a plist value) and for malformed `$data` / `$date` objects.
    package static func plist(_ value: ScenarioValue) -> PlistValue? {
        switch value {
        case .null: return nil
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let elements):
            var converted: [PlistValue] = []
            for element in elements {
                guard let plist = plist(element) else { return nil }
                converted.append(plist)
            }
            return .array(converted)
        case .object(let object):
            if object.members.count == 1, let member = object.members.first, case .string(let text) = member.value {
                if member.key == "$data" { return Data(base64Encoded: text).map { .data([UInt8]($0)) } }
                if member.key == "$date" { return ISODate.parse(text).map { .date(epochMicroseconds: $0) } }
            }
            var entries: [PlistEntry] = []
            for member in object.members {
                guard let plist = plist(member.value) else { return nil }
                entries.append(PlistEntry(key: member.key, value: plist))
            }
            return .makeDictionary(entries)
        }
    }

    /// A property-list value written as in scenario files (as `ValueJSON` writes it), directly.
    package static func value(_ plist: PlistValue) -> ScenarioValue {
        switch plist {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .double(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .data(let bytes): return ["$data": .string(Data(bytes).base64EncodedString())]
        case .date(let micros): return ["$date": .string(ISODate.format(epochMicroseconds: micros))]
        case .array(let elements): return .array(elements.map(value))
        case .dictionary(let entries): return .object(ScenarioObject(members: entries.map { ScenarioMember(key: $0.key, value: value($0.value)) }))
        }
    }
}
