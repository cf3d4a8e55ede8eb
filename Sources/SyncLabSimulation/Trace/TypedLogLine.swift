import SyncLabKernel
import SyncLabProtocol

/// The end of a typed log line (`TraceRecorder.log(_:_:_:_:)` with `LogFields`) after its
/// `begin`: `,"event":"NAME","details":{"NAME":"VALUE",…}}` and the newline, written in one
/// piece. Only for lines whose event, detail names and literal values need no escaping (checked
/// here, a word at a time, for every line: a `StaticString` may hold any text), so each is
/// copied as it is, between fixed punctuation.
enum TypedLogLine {
    /// The most bytes `write` writes for `fields`, or nil when a name or literal needs escaping
    /// (the caller writes the line the general way).
    @inline(__always) static func byteBound(_ fields: LogFields) -> Int? {
        // `,"event":"` (10), `","details":{` (14), `}}` and the newline (3).
        guard let event = plainCount(fields.event) else { return nil }
        guard let first = detailBound(fields.first), let second = detailBound(fields.second),
              let third = detailBound(fields.third), let fourth = detailBound(fields.fourth) else { return nil }
        return 27 + event + first + second + third + fourth
    }

    /// The most bytes of `,"NAME":"VALUE"` (0 for no detail), or nil when it needs escaping.
    @inline(__always) private static func detailBound(_ field: LogFields.Field?) -> Int? {
        guard let field else { return 0 }
        // `,"` (2), `":"` (3), the value (at most 20 digits), `"` (1).
        guard let name = plainCount(field.name) else { return nil }
        switch field.value {
        case .number: return 6 + name + 20
        case .literal(let text):
            guard let count = plainCount(text) else { return nil }
            return 6 + name + count
        }
    }

    /// Writes the line's end at `target` (after `byteBound` said how much room); returns the
    /// position after it.
    @inline(__always) static func write(_ fields: LogFields, to target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var target = TraceBuffer.copy(#","event":""#, to: target)
        target = TraceBuffer.copy(fields.event.utf8Start, fields.event.utf8CodeUnitCount, to: target)
        target = TraceBuffer.copy(#"","details":{"#, to: target)
        if let first = fields.first {
            target = detail(first, to: target)
            if let second = fields.second {
                target = detail(second, to: comma(target))
                if let third = fields.third {
                    target = detail(third, to: comma(target))
                    if let fourth = fields.fourth { target = detail(fourth, to: comma(target)) }
                }
            }
        }
        return TraceBuffer.copy("}}\n", to: target)
    }

    @inline(__always) private static func comma(_ target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        target.pointee = UInt8(ascii: ",")
        return target + 1
    }

    /// `"NAME":"VALUE"`.
    @inline(__always) private static func detail(_ field: LogFields.Field, to target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        target.pointee = UInt8(ascii: "\"")
        var target = TraceBuffer.copy(field.name.utf8Start, field.name.utf8CodeUnitCount, to: target + 1)
        target = TraceBuffer.copy(#"":""#, to: target)
        switch field.value {
        case .number(let value): target = TraceBuffer.decimal(value, to: target)
        case .literal(let text): target = TraceBuffer.copy(text.utf8Start, text.utf8CodeUnitCount, to: target)
        }
        target.pointee = UInt8(ascii: "\"")
        return target + 1
    }

    /// `text`'s byte count when it is stored as UTF-8 (not a single scalar) with nothing JSON
    /// escapes (a byte below 0x20, a quote, a backslash); else nil.
    @inline(__always) static func plainCount(_ text: StaticString) -> Int? {
        guard text.hasPointerRepresentation else { return nil }
        let count = text.utf8CodeUnitCount
        if count <= 16 { return TraceBuffer.mayNeedEscape(text.utf8Start, count) ? nil : count }
        // Longer: 8 bytes at a time, the last 8 overlapping.
        let raw = UnsafeRawPointer(text.utf8Start)
        var offset = 0
        while offset < count - 8 {
            if TraceBuffer.needsEscape(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return nil }
            offset += 8
        }
        return TraceBuffer.needsEscape(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) ? nil : count
    }
}
