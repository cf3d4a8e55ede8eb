/// A count with its noun in the right number: "1 seed", "2 seeds", "0 seeds".
enum Counted {
    /// `count` and `noun` (the singular), with an "s" unless `count` is 1.
    static func text(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
