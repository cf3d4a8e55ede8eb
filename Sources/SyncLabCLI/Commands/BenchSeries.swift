import Foundation
import SyncLabJSON

/// `synclab bench --series`: the same workload at 10, 100, 1,000 and 10,000 devices, each point in
/// its own process (so its peak memory is its own), as a Markdown table and an SVG plot.
///
/// Every point makes about 1,000 writes (the duration shrinks as devices grow), so the points
/// differ in scale, not in how much work is asked.
enum BenchSeries {
    static let deviceCounts = [10, 100, 1_000, 10_000]
    static let writesPerPoint = 1_000

    /// One point: the busy run and an idle run with as many devices.
    struct Point {
        var devices: Int
        var figures: [String: Double]
        var idlePeakBytes: Double
    }

    static func main(store: String, seed: UInt64, svgPath: String?) -> ExitStatus {
        // The plot's file is opened before the series runs (minutes), so a path that cannot be
        // written fails at once, and it is written in place like the trace file: a rename would
        // replace a device node or a symlink the user named with a regular file.
        var svgFile: FileHandle?
        if let svgPath {
            // Not `FileManager.createFile`: it writes a new file and renames it over the path.
            let descriptor = open(svgPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                Console.error("synclab bench: --series-svg: cannot write \(svgPath)"); return .badInput
            }
            svgFile = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        }
        guard let base = run(["--workload", "idle", "--devices", "1", "--seed", String(seed)])?["peakMemoryBytes"] else { return .failed }
        var points: [Point] = []
        for devices in deviceCounts {
            let seconds = 60 * writesPerPoint / devices
            guard let figures = run(["--store", store, "--devices", String(devices), "--duration", "\(seconds)s", "--seed", String(seed)]),
                  let idle = run(["--workload", "idle", "--devices", String(devices), "--seed", String(seed)])?["peakMemoryBytes"] else { return .failed }
            points.append(Point(devices: devices, figures: figures, idlePeakBytes: idle))
            Console.error("  \(devices) devices done")
        }
        Console.out(markdown(points, store: store, basePeakBytes: base))
        if let svgFile, let svgPath {
            let svg = BenchPlotSVG.series(points, store: store)
            // A device (/dev/null, /dev/full) cannot be truncated: what decides is the write.
            _ = ftruncate(svgFile.fileDescriptor, 0)
            do {
                try svgFile.write(contentsOf: Data(svg.utf8))
            } catch {
                Console.error("synclab bench: --series-svg: cannot write \(svgPath): \(ScenarioFiles.reason(error))"); return .badInput
            }
        }
        return .success
    }

    /// Runs this executable's bench with `--format json` and reads its numeric figures.
    static func run(_ arguments: [String]) -> [String: Double]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["bench", "--format", "json"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { Console.error("synclab bench: cannot start \(CommandLine.arguments[0]): \(error)"); return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let node = try? JSON5Reader.parse(bytes: [UInt8](data)), let members = node.members else {
            Console.error("synclab bench: the run \(arguments.joined(separator: " ")) failed"); return nil
        }
        var figures: [String: Double] = [:]
        for member in members {
            switch member.value.value {
            case .integer(let value): figures[member.key] = Double(value)
            case .double(let value): figures[member.key] = value
            default: break
            }
        }
        return figures
    }

    static func markdown(_ points: [Point], store: String, basePeakBytes: Double) -> String {
        var lines = [
            "| devices | writes | events | events per write | events/s | of the kernel | peak memory | bytes per device (busy) | bytes per idle device |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for point in points {
            let f = point.figures
            let busy = ((f["peakMemoryBytes"] ?? 0) - basePeakBytes) / Double(point.devices)
            let idle = (point.idlePeakBytes - basePeakBytes) / Double(point.devices)
            lines.append(String(format: "| %d | %.0f | %.0f | %.0f | %.0f | %.3f | %.1f MB | %.0f | %.0f |", point.devices, f["operations"] ?? 0, f["events"] ?? 0,
                                f["eventsPerWrite"] ?? 0, f["eventsPerSecond"] ?? 0, f["ofKernel"] ?? 0,
                                (f["peakMemoryBytes"] ?? 0) / 1_048_576, max(busy, 0), max(idle, 0)))
        }
        lines.append("")
        lines.append(String(format: "Store %@; bytes per device are (peak − the peak of a 1-device idle run, %.1f MB) ÷ devices.", store as NSString, basePeakBytes / 1_048_576))
        return lines.joined(separator: "\n")
    }
}
