/// 64-bit arithmetic that sticks at `Int64.min` / `Int64.max` instead of trapping.
///
/// Time and sizes come from files (scenarios, result.json, traces): no value one can carry may
/// crash the process. Validation keeps scenario values far below these ends (see
/// `SimDuration.scenarioLimit`), so saturation only ever meets hostile or corrupt input.
public enum Saturating {
    @inlinable public static func add(_ lhs: Int64, _ rhs: Int64) -> Int64 {
        let (sum, overflow) = lhs.addingReportingOverflow(rhs)
        return overflow ? (rhs > 0 ? .max : .min) : sum
    }

    @inlinable public static func subtract(_ lhs: Int64, _ rhs: Int64) -> Int64 {
        let (difference, overflow) = lhs.subtractingReportingOverflow(rhs)
        return overflow ? (rhs < 0 ? .max : .min) : difference
    }

    @inlinable public static func multiply(_ lhs: Int64, _ rhs: Int64) -> Int64 {
        let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
        return overflow ? ((lhs < 0) == (rhs < 0) ? .max : .min) : product
    }
}
