import SyncLabJSON

/// A scenario file's parsed text as the tree the shrinker edits.
public enum ShrinkInput {
    /// The file's tree with `variant` made the base (`Shrinker.flatten`); a fingerprint target
    /// drops `expect` (the fingerprint alone is kept; `minimal.json` gets expectations of its own).
    public static func prepare(_ node: JSONNode, variant: String, target: ShrinkTarget) -> JSON {
        let flat = Shrinker.flatten(JSON.tree(node), variant: variant)
        if case .fingerprint = target { return flat.removing("expect") }
        return flat
    }
}
