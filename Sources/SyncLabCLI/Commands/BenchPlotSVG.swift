import Foundation

/// A small self-contained SVG line plot for `synclab bench --series`: log-scaled axes, one line
/// per figure, a legend. No scripts, fonts or links, so the file renders anywhere as it is.
enum BenchPlotSVG {
    static let width = 640.0, height = 360.0
    static let left = 70.0, right = 20.0, top = 30.0, bottom = 50.0

    /// Events per write, events/s ÷ 1,000, and bytes per idle device against devices, log–log.
    static func series(_ points: [BenchSeries.Point], store: String) -> String {
        let lines: [(name: String, color: String, values: [Double])] = [
            ("events per write", "#1f77b4", points.map { $0.figures["eventsPerWrite"] ?? 0 }),
            ("thousand events/s", "#d62728", points.map { ($0.figures["eventsPerSecond"] ?? 0) / 1_000 }),
            ("peak memory, MB", "#2ca02c", points.map { ($0.figures["peakMemoryBytes"] ?? 0) / 1_048_576 }),
        ]
        let xs = points.map { Double($0.devices) }
        let ys = lines.flatMap(\.values).filter { $0 > 0 }
        let xRange = decades(xs), yRange = decades(ys)
        func x(_ value: Double) -> Double { left + (log10(value) - xRange.lowerBound) / (xRange.upperBound - xRange.lowerBound) * (width - left - right) }
        func y(_ value: Double) -> Double { height - bottom - (log10(max(value, 1e-9)) - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound) * (height - top - bottom) }
        var svg = String(format: #"<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11">"#, width, height, width, height)
        svg += "\n" + String(format: #"<rect width="%.0f" height="%.0f" fill="white"/>"#, width, height)
        svg += "\n" + String(format: #"<text x="%.0f" y="18" font-size="13">synclab bench --series (%@): devices, log scale</text>"#, left, store as NSString)
        for decade in stride(from: xRange.lowerBound, through: xRange.upperBound, by: 1) {
            let position = x(pow(10, decade))
            svg += "\n" + String(format: ##"<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="middle">%@</text>"##,
                                 position, top, position, height - bottom, position, height - bottom + 16, label(pow(10, decade)) as NSString)
        }
        for decade in stride(from: yRange.lowerBound, through: yRange.upperBound, by: 1) {
            let position = y(pow(10, decade))
            svg += "\n" + String(format: ##"<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="end">%@</text>"##,
                                 left, position, width - right, position, left - 6, position + 4, label(pow(10, decade)) as NSString)
        }
        for (index, line) in lines.enumerated() {
            let coordinates = zip(xs, line.values).filter { $0.1 > 0 }.map { String(format: "%.1f,%.1f", x($0.0), y($0.1)) }
            svg += "\n" + #"<polyline fill="none" stroke-width="2" stroke=""# + line.color + #"" points=""# + coordinates.joined(separator: " ") + #""/>"#
            for point in coordinates {
                let parts = point.split(separator: ",")
                svg += String(format: #"<circle cx="%@" cy="%@" r="3" fill="%@"/>"#, String(parts[0]) as NSString, String(parts[1]) as NSString, line.color as NSString)
            }
            let legendY = height - 14.0
            let legendX = left + Double(index) * 180
            svg += "\n" + String(format: #"<rect x="%.0f" y="%.0f" width="12" height="4" fill="%@"/><text x="%.0f" y="%.0f">%@</text>"#,
                                 legendX, legendY - 4, line.color as NSString, legendX + 16, legendY, line.name as NSString)
        }
        svg += "\n</svg>\n"
        return svg
    }

    /// Whole decades (log10) that hold every value.
    static func decades(_ values: [Double]) -> ClosedRange<Double> {
        let logs = values.filter { $0 > 0 }.map(log10)
        let low = floor(logs.min() ?? 0), high = ceil(logs.max() ?? 1)
        return low...(high > low ? high : low + 1)
    }

    static func label(_ value: Double) -> String {
        if value >= 1 { return String(format: "%.0f", value) }
        return String(format: "%g", value)
    }
}
