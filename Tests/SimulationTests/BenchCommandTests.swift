import Foundation
import Testing

/// `synclab bench`: its workloads, streamed trace and `--compare`, by the work they count (no timings).
@Suite("synclab bench")
struct BenchCommandTests {
    @Test("every store and workload runs, settles and reports its figures; a streamed trace has the bytes of a second run")
    func workloadsRun() throws {
        for store in ["kvs", "documents", "records", "mixed"] {
            let output = try Synclab.run(["bench", "--yardstick-events", "1000", "--store", store, "--devices", "3", "--duration", "2m", "--format", "json"])
            #expect(output.status == 0, "\(store): \(output.stderr)")
            #expect(output.stdout.contains(#""store": "\#(store)""#), "\(output.stdout)")
            #expect(output.stdout.contains(#""settled": true"#))
            #expect(output.stdout.contains("ofKernel"))
        }
        let day = try Synclab.run(["bench", "--yardstick-events", "1000", "--workload", "day", "--devices", "3", "--duration", "1h", "--check"])
        #expect(day.status == 0, "\(day.stderr)")
        #expect(day.stdout.contains("mixed day, 3 devices"))
        #expect(day.stdout.contains("history facts"))
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var traces: [Data] = []
        for name in ["a.jsonl", "b.jsonl"] {
            let path = directory.appendingPathComponent(name).path
            let traced = try Synclab.run(["bench", "--yardstick-events", "1000", "--store", "mixed", "--devices", "3", "--duration", "1m", "--trace", "--trace-file", path])
            #expect(traced.status == 0, "\(traced.stderr)")
            traces.append(FileManager.default.contents(atPath: path) ?? Data())
        }
        #expect(!traces[0].isEmpty)
        #expect(traces[0] == traces[1])
    }

    @Test("a --trace-file that cannot be written is exit 2 naming the path, not a trace kept in memory or a crash; --trace-file alone streams the trace")
    func unwritableTraceFile() throws {
        let path = "/nonexistent-\(UUID().uuidString)/trace.jsonl"
        let refused = try Synclab.run(["bench", "--yardstick-events", "1000", "--store", "kvs", "--devices", "3", "--duration", "1m", "--trace-file", path])
        #expect(refused.status == 2, "\(refused.stdout)")
        #expect(refused.stderr.contains("--trace-file: cannot open \(path) for writing"), "\(refused.stderr)")
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = directory.appendingPathComponent("alone.jsonl").path
        let alone = try Synclab.run(["bench", "--yardstick-events", "1000", "--store", "kvs", "--devices", "3", "--duration", "1m", "--trace-file", written])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect((FileManager.default.contents(atPath: written)?.count ?? 0) > 0)
    }

    @Test("a --series-svg path that cannot be written is exit 2 at once, before the series runs")
    func unwritableSeriesPlot() throws {
        let path = "/nonexistent-\(UUID().uuidString)/series.svg"
        let refused = try Synclab.run(["bench", "--series", "--series-svg", path])
        #expect(refused.status == 2, "\(refused.stdout)")
        #expect(refused.stderr.contains("--series-svg: cannot write \(path)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("devices done"), "the series ran before the path was checked: \(refused.stderr)")
    }

    @Test("--reports runs the workload as synclab run does and writes its four report files")
    func reports() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("day").path
        let output = try Synclab.run(["bench", "--yardstick-events", "1000", "--workload", "day", "--devices", "3", "--duration", "1h",
                                      "--reports", folder, "--format", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("reports_s") && output.stdout.contains("total_s"), "\(output.stdout)")
        for name in ["trace.jsonl", "result.json", "timeline.html", "report.md"] {
            #expect(FileManager.default.fileExists(atPath: folder + "/" + name), "\(name)")
        }
        let result = String(decoding: FileManager.default.contents(atPath: folder + "/result.json") ?? Data(), as: UTF8.self)
        #expect(result.contains(#""settled": true"#))
        let both = try Synclab.run(["bench", "--yardstick-events", "1000", "--reports", folder, "--check"])
        #expect(both.status == 2)
    }

    @Test("--compare prints each figure's ratio to the baseline entry for the same store, workload and devices, and refuses a missing entry")
    func compare() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let baseline = directory.appendingPathComponent("baseline.json")
        try Data(#"[{"store": "kvs", "workload": "idle", "devices": 4, "events": 122, "ofKernel": 0.1}]"#.utf8).write(to: baseline)
        let output = try Synclab.run(["bench", "--yardstick-events", "1000", "--workload", "idle", "--devices", "4", "--compare", baseline.path])
        #expect(output.status == 0, "\(output.stderr)")
        // Four idle devices run 61 events (15 each and the heal): half the baseline's 122.
        #expect(output.stdout.contains("0.500x"), "\(output.stdout)")
        let missing = try Synclab.run(["bench", "--yardstick-events", "1000", "--workload", "idle", "--devices", "5", "--compare", baseline.path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no entry for store kvs, workload idle, 5 devices"))
        #expect(try Synclab.run(["bench", "--yardstick-events", "1000", "--store", "nope"]).status == 2)
        #expect(try Synclab.run(["bench", "--yardstick-events", "1000", "--workload", "nope"]).status == 2)
    }
}
