/// A trace line with typed details: the event's name and up to four (name, value) pairs, all
/// literals or numbers. It renders exactly as `log(event, [(name, text), …])` with the values
/// spelled as strings, but builds no array and no strings: the engines' commonest lines (a KVS
/// fetch and its answer, on most steps) cost an array, a `String` per number and a generic
/// destroy of every pair when they were logged as text.
///
/// Nothing in it needs releasing, so the boxed action that carries it is freed without walking it.
public struct LogFields: Sendable {
    public typealias Field = (name: StaticString, value: LogValue)

    public let event: StaticString
    /// The details in order; `count` of them are set.
    public let count: Int
    public let first: Field?, second: Field?, third: Field?, fourth: Field?

    @inlinable public init(_ event: StaticString, _ first: Field? = nil, _ second: Field? = nil, _ third: Field? = nil, _ fourth: Field? = nil) {
        precondition(first != nil || (second == nil && third == nil && fourth == nil), "LogFields: details are given in order")
        precondition(second != nil || (third == nil && fourth == nil), "LogFields: details are given in order")
        precondition(third != nil || fourth == nil, "LogFields: details are given in order")
        self.event = event
        self.first = first; self.second = second; self.third = third; self.fourth = fourth
        count = fourth != nil ? 4 : third != nil ? 3 : second != nil ? 2 : first != nil ? 1 : 0
    }

    /// The detail at `index` (below `count`).
    @inlinable public subscript(index: Int) -> Field {
        switch index {
        case 0: return first!
        case 1: return second!
        case 2: return third!
        default: return fourth!
        }
    }

    /// The details as text, as the trace writes them (for tests and for hosts that keep text).
    public var details: [(String, String)] {
        (0..<count).map { index in
            let field = self[index]
            switch field.value {
            case .number(let value): return (field.name.description, String(value))
            case .literal(let text): return (field.name.description, text.description)
            }
        }
    }
}
