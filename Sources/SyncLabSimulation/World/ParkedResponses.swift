import SyncLabProtocol

/// Responses on their way to a device, each parked in a slot its `responseArrives` event names.
///
/// The event used to carry the response in an `indirect` case: a box allocated per response,
/// and the handler could only copy the response out of it (retaining every payload) and release
/// it again when the event was destroyed. A slot is taken by moving the response out, and its
/// storage is reused, so neither the box nor the copy remains.
struct ParkedResponses {
    private var slots: [ResponseEnvelope?] = []
    private var freeSlots: [Int32] = []

    /// Parks a response; the returned slot is taken exactly once.
    mutating func park(_ response: consuming ResponseEnvelope) -> Int32 {
        if let slot = freeSlots.popLast() {
            slots[Int(slot)] = response
            return slot
        }
        slots.append(response)
        return Int32(slots.count - 1)
    }

    /// Moves the response out of its slot and frees the slot.
    mutating func take(_ slot: Int32) -> ResponseEnvelope {
        guard let response = slots[Int(slot)].take() else { preconditionFailure("response slot \(slot) taken twice") }
        freeSlots.append(slot)
        return response
    }
}
