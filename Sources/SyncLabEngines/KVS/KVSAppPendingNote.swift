/// A note for the KVS app of device `device` (its index), held in the platform's buffer for all
/// devices until that buffer is handed to the devices' memories. 32 bytes.
public struct KVSAppPendingNote: Sendable {
    @usableFromInline package var device: Int32
    @usableFromInline package var note: KVSAppNote

    @inlinable package init(device: Int32, note: KVSAppNote) { self.device = device; self.note = note }
}
