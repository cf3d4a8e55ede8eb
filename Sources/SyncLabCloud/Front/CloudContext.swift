import SyncLabKernel
import SyncLabProtocol

/// Everything the cloud is given for one request and everything it hands back.
public struct CloudContext: Sendable {
    /// The cloud's clock: true time plus any `cloud.clock.set` offset. Server dates come from it.
    public var now: LocalInstant
    /// Arrival order: a counter that only grows, for `timestampSource: server` and `winner: arrival`.
    public var arrival: UInt64
    /// Actions for the host, in order; drained and cleared by the host.
    public var actions: [CloudAction]
    /// The details of the typed trace lines among `actions`, in order: a `.logFields(i)` action
    /// is `logs[i]`. Drained and cleared with `actions`.
    public var logs: [LogFields] = []
    /// Whether the host keeps trace lines; when false, `log` builds nothing.
    public var tracing: Bool = true

    public init(now: LocalInstant, arrival: UInt64) {
        // No reserve: the host swaps in its reused buffer.
        self.now = now; self.arrival = arrival; self.actions = []
    }

    @inlinable public mutating func emit(_ action: CloudAction) { actions.append(action) }
    @inlinable public mutating func observe(_ observation: Observation) { actions.append(.observe(observation)) }
    /// A trace line; its details are only built when the host is tracing.
    @inlinable public mutating func log(_ event: String, _ details: @autoclosure () -> [(String, String)]) {
        if tracing { actions.append(.log(event: event, details: details())) }
    }
    /// A trace line with typed details, built only when the host is tracing: no array, no strings.
    @inlinable public mutating func log(_ fields: @autoclosure () -> LogFields) {
        if tracing {
            actions.append(.logFields(logs.count))
            logs.append(fields())
        }
    }
    /// Answers `request` with `response`, for the response's store: `Cloud.handle` has moved the
    /// request's body out by then.
    @inlinable public mutating func respond(to request: RequestEnvelope, _ response: ServiceResponse) {
        actions.append(.respond(ResponseEnvelope(requestID: request.requestID, device: request.device, store: response.store, result: .ok(response))))
    }
}
