package import SyncLabJSON

/// A JSON object as in a scenario file: members in the order written (a duplicate key is an
/// error when the scenario is read, as in a file). Write it as a dictionary literal.
public struct ScenarioObject: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    /// The members, in order.
    public var members: [ScenarioMember]

    /// An object of these members, in order.
    public init(members: [ScenarioMember] = []) { self.members = members }

    /// An object written as a literal: its keys in the order written.
    public init(dictionaryLiteral elements: (String, ScenarioValue)...) {
        members = elements.map { ScenarioMember(key: $0.0, value: $0.1) }
    }

    /// The first member named `key`; setting replaces it in place, or appends it, or (nil) removes it.
    public subscript(key: String) -> ScenarioValue? {
        get { members.first { $0.key == key }?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(ScenarioMember(key: key, value: newValue))
            }
        }
    }

    package var json: JSON { .object(members.map { ($0.key, $0.value.json) }) }

    /// The object's JSON text, as a scenario file (or `result.json`) writes it.
    public var jsonText: String { json.rendered() }
}

extension ScenarioObject: CustomStringConvertible {
    /// The object as JSON (`{"main":{"kvs":{…},…}}`), as `ScenarioValue` prints: printing
    /// `result.final` or a builder's `file` shows the data, not the type's members.
    public var description: String { jsonText }
}

/// One member of a `ScenarioObject`.
public struct ScenarioMember: Hashable, Sendable {
    /// The member's key.
    public var key: String
    /// The member's value.
    public var value: ScenarioValue
    /// A member.
    public init(key: String, value: ScenarioValue) { self.key = key; self.value = value }
}
