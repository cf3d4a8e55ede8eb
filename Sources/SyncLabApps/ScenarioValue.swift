package import SyncLabJSON

/// A value written as in a scenario file (SPEC §5): what the builder, the world's ops and the
/// views a device shows are made of. Write it with Swift literals: `"x"`, `1`, `1.5`, `true`,
/// `nil`, `[1, 2]`, `["title": "Milk"]`. Integers and doubles stay distinct, as in files.
public enum ScenarioValue: Hashable, Sendable {
    /// `null`: absent (in `expect.final` and asserts), or a removed field.
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([ScenarioValue])
    /// An object, members in the order written.
    case object(ScenarioObject)

    /// The value as compact JSON text (one line, keys in order).
    public var jsonText: String { json.rendered() }

    package var json: JSON {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .int(number)
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(\.json))
        case .object(let object): return object.json
        }
    }

    package init(_ json: JSON) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .integer(number)
        case .uint(let number): self = number <= UInt64(Int64.max) ? .integer(Int64(number)) : .double(Double(number))
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(ScenarioValue.init))
        case .object(let fields): self = .object(ScenarioObject(members: fields.map { ScenarioMember(key: $0.key, value: ScenarioValue($0.value)) }))
        }
    }
}

extension ScenarioValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    /// `"text"` is `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `3` is `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// `2.5` is `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `true` is `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[…]` is `.array`.
    public init(arrayLiteral elements: ScenarioValue...) { self = .array(elements) }
    /// `["key": …]` is `.object`, its keys in the order written.
    public init(dictionaryLiteral elements: (String, ScenarioValue)...) {
        self = .object(ScenarioObject(members: elements.map { ScenarioMember(key: $0.0, value: $0.1) }))
    }
    /// `nil` is `.null`.
    public init(nilLiteral: ()) { self = .null }
}

extension ScenarioValue: CustomStringConvertible {
    /// The JSON text.
    public var description: String { jsonText }
}
