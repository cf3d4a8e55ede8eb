import SyncLabProtocol

/// One note for a device's `KVSAppReadMemory`, waiting in the simulator's shared buffer
/// (`Simulator.kvsAppNotes`): its KVS app read `write` as the value of `key`, or a write was
/// made on the device to `key` (`madeHere`).
///
/// Why a shared buffer: noting straight into the device's memory touched that device's log, a
/// cold cache line at nearly every notification of a 1,000-device run (the observer of
/// `bench --hosted` reads every changed key); the shared buffer's end is always warm, and a
/// flush hands each device its notes together.
struct KVSAppNote {
    var device: Int32
    var key: String
    var write: WriteID
    var madeHere: Bool
}
