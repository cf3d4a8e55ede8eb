/// Sums of byte counts (documents on the wire, in a document's versions) that saturate at
/// 2^63 - 1 instead of trapping: a scenario may write any size up to that, and two of them
/// together are then "more than any quota or link holds", which is what the sum is for.
public enum ByteCount {
    public static func sum(_ lhs: Int64, _ rhs: Int64) -> Int64 {
        let (total, overflow) = lhs.addingReportingOverflow(rhs)
        return overflow ? .max : total
    }
}
