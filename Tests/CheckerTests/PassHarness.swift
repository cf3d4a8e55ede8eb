import SyncLabHistory
@testable import SyncLabChecker

/// Runs the checker's scan on a hand-built history, so a test can look at one pass alone.
enum PassHarness {
    /// The scanned context, and the moment passes the scan fed.
    static func scan(_ builder: HistoryBuilder) -> (context: CheckContext, moments: Checker.MomentPasses) {
        var moments = Checker.MomentPasses(deviceCount: builder.history.deviceNames.count, log: builder.history.facts)
        let context = Checker.scan(builder.history, &moments)
        return (context, moments)
    }
}
