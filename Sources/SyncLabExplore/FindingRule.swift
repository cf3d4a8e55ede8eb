/// What counts as a finding (SPEC §10).
public enum FindingRule: Sendable, Equatable {
    /// A broken promise of the run's policies (docs/FUZZING.md), a failed run, or a divergence
    /// after the heal.
    case promises
    /// Any anomaly of this kind (`--find KIND`): examples for a design review.
    case find(String)

    /// The anomaly kinds `--find` accepts (SPEC §6).
    public static let kinds = ["lostUpdate", "causalityViolation", "quotaViolation", "divergence", "atomicityViolation",
                               "isolationViolation", "resurrection", "missedNotification", "spuriousNotification"]
}
