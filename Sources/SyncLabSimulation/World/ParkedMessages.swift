/// Messages on their way (requests to the cloud, responses to a device), each parked in a slot
/// that its `requestArrives` or `responseArrives` event names.
///
/// The events used to carry the message in an `indirect` case: a box allocated per message,
/// and the handler could only copy the message out of it (retaining every payload) and release
/// it again when the event was destroyed. A slot is taken by moving the message out, and its
/// storage is reused, so neither the box nor the copy remains.
struct ParkedMessages<Message> {
    private var slots: [Message?] = []
    private var freeSlots: [Int32] = []

    /// Parks a message; the returned slot is taken exactly once.
    mutating func park(_ message: consuming Message) -> Int32 {
        if let slot = freeSlots.popLast() {
            slots[Int(slot)] = message
            return slot
        }
        slots.append(message)
        return Int32(slots.count - 1)
    }

    /// Moves the message out of its slot and frees the slot.
    mutating func take(_ slot: Int32) -> Message {
        guard let message = slots[Int(slot)].take() else { preconditionFailure("message slot \(slot) taken twice") }
        freeSlots.append(slot)
        return message
    }
}
