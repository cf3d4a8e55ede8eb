/// The columns of the variant comparison (SPEC §8, "a comparison table (variant × metrics)"):
/// every metric of RESULT, in the order §7 lists them, under the heading the table shows.
/// `report.md` and `timeline.html` both draw from this list, so they compare the same figures.
/// It used to hold five of the nine metrics: the cost of a policy (messages, retries) and its
/// notifications were missing from the comparison a design review reads.
enum ComparisonColumns {
    /// (metric name in RESULT, column heading).
    static let metrics: [(name: String, heading: String)] = [
        ("writes", "writes"),
        ("lostUpdates", "lost updates"),
        ("conflicts", "conflicts"),
        ("unresolvedConflicts", "unresolved"),
        ("quotaViolations", "quota violations"),
        ("converged", "converged"),
        ("notifications", "notifications"),
        ("messages", "messages"),
        ("retries", "retries"),
    ]

    /// A metric's value as the table shows it: `yes`/`no` for `converged`, else as written.
    static func shown(_ value: String) -> String { value == "true" ? "yes" : value == "false" ? "no" : value }
}
