/// Coordinates as short, locale-free text with at most one decimal (`12`, `12.5`, `-3.1`).
///
/// A tenth of a pixel is finer than any screen shows; fewer digits keep a 50-device file small.
enum SVGNumber {
    static func text(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = Int64((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        let whole = magnitude / 10, fraction = magnitude % 10
        return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}
