/// What kind of thing the checker found wrong (SPEC §6). The raw value is the name results,
/// reports and scenario files use (`"kind": "lostUpdate"`), so renaming a case breaks the build,
/// never a report.
///
/// The cases are listed in the order SPEC §6 lists them; scenario validation offers the names
/// in this order.
public enum AnomalyKind: String, CaseIterable, Hashable, Sendable {
    /// A write accepted locally that, at the end, survives nowhere and was not observed by the
    /// final value; or a pending change discarded; or a field overwritten without being seen.
    case lostUpdate
    /// A last-writer-wins comparison chose a write the loser had already seen (clock skew).
    case causalityViolation
    /// A write refused or rolled back for a limit.
    case quotaViolation
    /// After settling, a device's view differs from the cloud's.
    case divergence
    /// A device showed part of an atomic call next to values that call had replaced.
    case atomicityViolation
    /// A device showed data of an account it was not signed into.
    case isolationViolation
    /// A deleted item back without a write that observed the delete.
    case resurrection
    /// A KVS key whose visible value a fetch changed, not listed by the change notification.
    case missedNotification
    /// A KVS key a change notification listed although its visible value did not change.
    case spuriousNotification
}
