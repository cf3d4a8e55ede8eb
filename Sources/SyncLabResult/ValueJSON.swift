import Foundation
import SyncLabJSON
import SyncLabProtocol

/// Values as they appear in traces and results (SPEC §4, §7): the same forms scenario files use.
public enum ValueJSON {
    public static func json(_ value: PlistValue) -> JSON {
        switch value {
        case .string(let text): return .string(text)
        case .integer(let number): return .int(number)
        case .double(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .data(let bytes): return JSON.object([("$data", .string(Data(bytes).base64EncodedString()))])
        case .date(let micros): return JSON.object([("$date", .string(ISODate.format(epochMicroseconds: micros)))])
        case .array(let elements): return .array(elements.map(json))
        case .dictionary(let entries): return JSON.sortedObject(entries.map { ($0.key, json($0.value)) })
        }
    }

    public static func json(_ content: DocumentContent) -> JSON {
        switch content {
        case .text(let text): return .string(text)
        case .synthetic(let size, _): return JSON.object([("$size", .int(size))])
        }
    }

    public static func json(_ value: FieldValue) -> JSON {
        switch value {
        case .string(let text): return .string(text)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .bytes(let bytes): return JSON.object([("$data", .string(Data(bytes).base64EncodedString()))])
        case .date(let micros): return JSON.object([("$date", .string(ISODate.format(epochMicroseconds: micros)))])
        case .location(let latitude, let longitude): return JSON.object([("lat", .double(latitude)), ("lon", .double(longitude))])
        case .reference(let name, let action): return JSON.object([("$ref", .string(name)), ("action", .string(action.rawValue))])
        case .asset(let size): return JSON.object([("$asset", .int(size))])
        case .list(let elements): return .array(elements.map(json))
        }
    }

    public static func json(_ value: ItemValue) -> JSON {
        switch value {
        case .absent: return .null
        case .kvs(let plist): return json(plist)
        case .document(let content): return json(content)
        case .field(let field): return json(field)
        case .recordExists(let type): return JSON.object([("$recordType", .string(type))])
        }
    }
}

/// Short human renderings of values for messages and explanations.
public enum ValueText {
    public static func describe(_ value: ItemValue) -> String {
        switch value {
        case .absent: return "absent"
        case .document(.text(let text)): return quoted(text)
        case .document(.synthetic(let size, _)): return "\(size) bytes"
        case .kvs(.string(let text)), .field(.string(let text)): return quoted(text)
        case .kvs, .field, .recordExists: return (ValueJSON.json(value).rendered())
        }
    }

    static func quoted(_ text: String) -> String {
        let limit = 60
        let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return JSON.string(shown).rendered()
    }
}
