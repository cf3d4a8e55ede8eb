import SyncLabKernel

extension RetryAfterDeadline {
    /// The app asks to sync now (`app.foreground`, `kvs.synchronize`): an armed retry timer that
    /// only waits out the backoff (up to 5 min) is cancelled, so the engine sends at once; one
    /// that a `retryAfter` the cloud gave still holds stays armed (SPEC §4: never earlier). The
    /// backoff level is the caller's and stays: only reconnecting resets it, so a further failure
    /// keeps doubling.
    /// - Parameters:
    ///   - armed: the engine's "retry timer armed" flag; cleared when the timer is cancelled.
    ///   - timer: the engine's retry timer.
    public mutating func stopWaitingOutBackoff(armed: inout Bool, timer: EngineTimer, _ context: inout EngineContext) {
        guard armed, remaining(now: context.now) == nil else { return }
        armed = false
        clear()
        context.emit(.cancelTimer(timer))
    }
}
