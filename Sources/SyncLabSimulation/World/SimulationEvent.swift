import SyncLabKernel
import SyncLabProtocol

/// Everything that can happen in the simulated world, as queued in the event heap.
enum SimulationEvent {
    /// An app launches at t=0.
    case launch(device: Int)
    /// Run the scenario's step with this index (into `ScenarioRun.steps`).
    case step(index: Int)
    /// After the last step: heal the world and settle.
    case heal
    /// A request reaches the cloud (if its link epoch is still current). The request waits in
    /// `Simulator.parkedRequests` under `slot`, so the event stays a few words wide (messages are
    /// large, and events are copied often) and the request is moved out, not copied out of a box.
    case requestArrives(slot: Int32, epoch: UInt32)
    /// A response (or an immediate local failure) reaches a device; the response waits in
    /// `Simulator.parkedResponses` under `slot`, as a request does.
    case responseArrives(slot: Int32, epoch: UInt32?, boot: UInt32)
    /// A request's timeout: if still unanswered, the engine gets `networkFailure`.
    case requestTimeout(device: Int, store: Store, requestID: UInt64, boot: UInt32)
    /// A push reaches a device.
    case pushArrives(device: Int, PushNotification, epoch: UInt32, boot: UInt32)
    /// An engine timer fires (if its generation is still current).
    case timer(device: Int, store: Store, timer: EngineTimer, generation: UInt32, boot: UInt32)
}
