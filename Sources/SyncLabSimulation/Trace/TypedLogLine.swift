import SyncLabJSON
import SyncLabKernel
import SyncLabProtocol

/// The end of a typed log line (`TraceRecorder.log(_:_:_:_:)` with `LogFields`) after its
/// `begin` — `,"event":"NAME","details":{"NAME":"VALUE",…}}` and the newline — from a template
/// made once per shape: the line's text with its event, names and literal values in place,
/// escaped as JSON escapes them, cut at its numbers. A line copies the template's pieces and
/// spells its numbers between them, after one reserve: no escape checks, no piece-by-piece
/// copies of names. A shape is the literals' addresses and lengths in the binary (an engine's
/// log call site gives the same ones every time) and which values are numbers.
///
/// The templates are a cache (64 slots, by a hash of the shape; a slot taken by another shape
/// is made again): what a line holds does not depend on it. Copies of a recorder share the
/// slots until one of them makes a template, which it then does in slots of its own.
struct TypedLogLine {
    /// A line's shape: for the event and each detail's name and literal value, its address and
    /// length as one word (`word(_:)`); 1 for a number, 0 for no detail.
    struct Shape: Equatable {
        var event: UInt, name0: UInt, value0: UInt, name1: UInt, value1: UInt, name2: UInt, value2: UInt, name3: UInt, value3: UInt

        /// No shape (an empty slot's): every word 0, which no line's event is.
        init() { event = 0; name0 = 0; value0 = 0; name1 = 0; value1 = 0; name2 = 0; value2 = 0; name3 = 0; value3 = 0 }

        /// nil when a literal is a single scalar, not UTF-8 in the binary (written the general way).
        @inline(__always) init?(_ fields: LogFields) {
            guard let event = Self.word(fields.event), let (name0, value0) = Self.words(fields.first), let (name1, value1) = Self.words(fields.second),
                  let (name2, value2) = Self.words(fields.third), let (name3, value3) = Self.words(fields.fourth) else { return nil }
            self.event = event; self.name0 = name0; self.value0 = value0; self.name1 = name1; self.value1 = value1
            self.name2 = name2; self.value2 = value2; self.name3 = name3; self.value3 = value3
        }

        @inline(__always) private static func words(_ field: LogFields.Field?) -> (UInt, UInt)? {
            guard let field else { return (0, 0) }
            guard let name = word(field.name) else { return nil }
            switch field.value {
            case .number: return (name, 1)
            case .literal(let text):
                guard let value = word(text) else { return nil }
                return (name, value)
            }
        }

        /// The literal's address, its length in the top 16 bits (user-space addresses fit in 48).
        @inline(__always) private static func word(_ text: StaticString) -> UInt? {
            guard text.hasPointerRepresentation, text.utf8CodeUnitCount < 1 << 16 else { return nil }
            let address = UInt(bitPattern: text.utf8Start)
            guard address < 1 << 48 else { return nil }
            return address | UInt(text.utf8CodeUnitCount) << 48
        }

        /// The slot a shape is kept in.
        @inline(__always) var slot: Int {
            let mixed = (event &* 0x9E37_79B9_7F4A_7C15) ^ (name0 &* 0xC2B2_AE3D_27D4_EB4F) ^ (value0 &* 0x1656_67B1_9E37_79F9) ^ name1
            return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 58)
        }
    }

    /// One shape's text: `count` bytes at `text`, cut at its numbers: piece `i` ends at `ends[i]`
    /// (the last piece at `count`).
    struct Template {
        var shape: Shape
        /// nil in an empty slot.
        var text: UnsafeMutablePointer<UInt8>?
        var count: Int
        var ends: (Int, Int, Int, Int)
        /// The most bytes a line of this shape writes: its text and 20 digits per number.
        var byteBound: Int
    }

    private var storage = Storage()

    /// The template for `fields`'s shape, made if it is not kept. Call only when `Shape(fields)` is not nil.
    @inline(__always) mutating func template(_ shape: Shape, _ fields: LogFields) -> UnsafePointer<Template> {
        let slot = storage.slots + shape.slot
        if _fastPath(slot.pointee.shape == shape) { return UnsafePointer(slot) }
        return make(shape, fields)
    }

    @inline(never) private mutating func make(_ shape: Shape, _ fields: LogFields) -> UnsafePointer<Template> {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        // The line's end as the general way writes it (`TraceBuffer.appendQuoted` escapes as
        // `JSON.writeString`), cut where each number goes.
        var bytes = Array(#","event":"#.utf8)
        JSON.writeString(fields.event.description, into: &bytes)
        bytes += Array(#","details":{"#.utf8)
        var ends: [Int] = []
        for index in 0..<fields.count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            let field = fields[index]
            JSON.writeString(field.name.description, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            switch field.value {
            case .number:
                bytes.append(UInt8(ascii: "\""))
                ends.append(bytes.count)
                bytes.append(UInt8(ascii: "\""))
            case .literal(let text):
                JSON.writeString(text.description, into: &bytes)
            }
        }
        bytes += Array("}}\n".utf8)
        let text = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        text.initialize(from: bytes, count: bytes.count)
        ends += Array(repeating: bytes.count, count: 4 - ends.count)
        let template = Template(shape: shape, text: text, count: bytes.count, ends: (ends[0], ends[1], ends[2], ends[3]),
                                byteBound: bytes.count + 20 * fields.count)
        let slot = storage.slots + shape.slot
        slot.pointee.text?.deallocate()
        slot.pointee = template
        return UnsafePointer(slot)
    }

    /// Writes the line's end from `template` at `target` (`template.byteBound` bytes of room);
    /// returns the position after it.
    @inline(__always) static func write(_ fields: LogFields, _ template: UnsafePointer<Template>, to target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let text = template.pointee.text.unsafelyUnwrapped, ends = template.pointee.ends
        // Each number follows the piece before it; the pieces after the last number are one.
        var start = 0, piece = 0, target = target
        @inline(__always) func number(_ field: LogFields.Field?) {
            guard let field, case .number(let value) = field.value else { return }
            let end = piece == 0 ? ends.0 : piece == 1 ? ends.1 : piece == 2 ? ends.2 : ends.3
            target = TraceBuffer.decimal(value, to: TraceBuffer.copy(text + start, end - start, to: target))
            start = end
            piece += 1
        }
        number(fields.first); number(fields.second); number(fields.third); number(fields.fourth)
        return TraceBuffer.copy(text + start, template.pointee.count - start, to: target)
    }

    /// The slots, owned by a class so copies of a recorder share them (and free them once).
    private final class Storage: @unchecked Sendable {
        static let slotCount = 64
        let slots: UnsafeMutablePointer<Template>

        init() {
            slots = .allocate(capacity: Self.slotCount)
            slots.initialize(repeating: Template(shape: Shape(), text: nil, count: 0, ends: (0, 0, 0, 0), byteBound: 0), count: Self.slotCount)
        }

        /// Slots of its own with the same templates (their text copied).
        func copy() -> Storage {
            let copy = Storage()
            for index in 0..<Self.slotCount {
                var template = slots[index]
                guard let original = template.text else { continue }
                let text = UnsafeMutablePointer<UInt8>.allocate(capacity: template.count)
                text.initialize(from: original, count: template.count)
                template.text = text
                copy.slots[index] = template
            }
            return copy
        }

        deinit {
            for index in 0..<Self.slotCount { slots[index].text?.deallocate() }
            slots.deinitialize(count: Self.slotCount)
            slots.deallocate()
        }
    }
}
