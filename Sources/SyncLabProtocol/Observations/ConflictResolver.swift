/// Who settled a conflict an app was shown: the conflict policy (a built-in one such as
/// `serverWins` or `keepVersions`, or a user app) that chose the outcome.
///
/// Carried as a typed field of `Observation.conflictShown`, so the checker names the policy in
/// its explanations without reading it out of the observation's free-form `detail`.
public struct ConflictResolver: Hashable, Sendable {
    /// The policy's (or app's) name, as explanations print it: `serverWins`, `merge`, `keepBoth`.
    public var name: String

    /// A resolver named `name`.
    public init(_ name: String) { self.name = name }
}
