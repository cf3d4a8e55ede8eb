// swift-tools-version:6.0
// SyncLab: a deterministic simulator for apps that sync through iCloud-like services.
// No package dependencies: the toolchain only (SPEC §1).
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "SyncLab",
    products: [
        .executable(name: "synclab", targets: ["synclab"]),
        // `import SyncLab` is all an app team writes (SPEC §9); the umbrella re-exports the rest.
        .library(name: "SyncLab", targets: ["SyncLab"]),
        // The command line as a library, for a team's own executable with its own apps.
        .library(name: "SyncLabCLI", targets: ["SyncLabCLI"]),
        // Swift Testing helpers: one issue per anomaly or failed expectation, with seed, replay line and reports.
        .library(name: "SyncLabTesting", targets: ["SyncLabTesting"]),
    ],
    targets: [
        // Virtual time, the event queue, seeded randomness, hashing. Knows nothing of iCloud.
        .target(name: "SyncLabKernel", swiftSettings: strict),
        // The JSON5 reader (positions, key order, number kinds) and the deterministic JSON writer.
        .target(name: "SyncLabJSON", swiftSettings: strict),
        // The vocabulary engines and the cloud share: values, ids, messages, observations.
        .target(name: "SyncLabProtocol", dependencies: ["SyncLabKernel"], swiftSettings: strict),
        // The server side of the three services, sans-IO.
        .target(name: "SyncLabCloud", dependencies: ["SyncLabKernel", "SyncLabProtocol"], swiftSettings: strict),
        // The client engines of the three services, sans-IO.
        .target(name: "SyncLabEngines", dependencies: ["SyncLabKernel", "SyncLabProtocol"], swiftSettings: strict),
        // The public app API (SPEC §9: DocumentsApp, KeyValueStoreApp, RecordsApp and its SyncEngine/SyncRecord, ScenarioValue…), its adapters onto the engines'
        // hosting protocols, and the built-in apps written only against it (BuiltInApps/). Below the simulation, which
        // makes the built-in apps by name; the umbrella re-exports it.
        .target(name: "SyncLabApps", dependencies: ["SyncLabKernel", "SyncLabJSON", "SyncLabProtocol", "SyncLabEngines"], swiftSettings: strict),
        // Scenario files: parsing, validation, variants, step expansion.
        .target(name: "SyncLabScenario", dependencies: ["SyncLabKernel", "SyncLabJSON", "SyncLabProtocol", "SyncLabHistory"], swiftSettings: strict),
        // The recorded run: history, facts, batches, and the vocabulary of a verdict (anomaly kinds, anomalies, the
        // check report). Below its producer (simulation) and its consumers (checker, scenario expectations, reports).
        .target(name: "SyncLabHistory", dependencies: ["SyncLabKernel", "SyncLabProtocol"], swiftSettings: strict),
        // The independent oracle: judges the history the simulator recorded.
        .target(name: "SyncLabChecker", dependencies: ["SyncLabKernel", "SyncLabProtocol", "SyncLabHistory"], swiftSettings: strict),
        // The result model: a run's outcome and its verdict (expectations, statistics), between the simulation and the reports.
        .target(name: "SyncLabResult", dependencies: [
            "SyncLabKernel", "SyncLabJSON", "SyncLabProtocol", "SyncLabScenario", "SyncLabHistory",
        ], swiftSettings: strict),
        // The world: devices, clocks, links, push, the run loop, the trace. It records; it does not judge.
        .target(name: "SyncLabSimulation", dependencies: [
            "SyncLabKernel", "SyncLabJSON", "SyncLabProtocol", "SyncLabCloud", "SyncLabEngines", "SyncLabApps", "SyncLabScenario", "SyncLabHistory",
            "SyncLabResult",
        ], swiftSettings: strict),
        // The runner: simulates a run, then judges it (the checker, the expectations). Above the simulation and the checker.
        .target(name: "SyncLabRunner", dependencies: [
            "SyncLabKernel", "SyncLabJSON", "SyncLabProtocol", "SyncLabScenario", "SyncLabHistory", "SyncLabChecker", "SyncLabResult", "SyncLabSimulation",
        ], swiftSettings: strict),
        // result.json, timeline.html, report.md, JUnit.
        .target(name: "SyncLabReports", dependencies: ["SyncLabKernel", "SyncLabJSON", "SyncLabProtocol", "SyncLabScenario", "SyncLabHistory", "SyncLabChecker", "SyncLabResult"], swiftSettings: strict),
        // The umbrella module app teams import.
        .target(name: "SyncLab", dependencies: [
            "SyncLabApps", "SyncLabKernel", "SyncLabJSON", "SyncLabProtocol", "SyncLabScenario", "SyncLabHistory", "SyncLabChecker", "SyncLabResult", "SyncLabSimulation",
            "SyncLabRunner", "SyncLabReports", "SyncLabExplore",
        ], swiftSettings: strict),
        // Swift Testing helpers over the umbrella's results.
        .target(name: "SyncLabTesting", dependencies: ["SyncLab"], swiftSettings: strict),
        // Exploration: scenario generators, promises, fingerprints, the shrinker, campaign summaries.
        .target(name: "SyncLabExplore", dependencies: [
            "SyncLabKernel", "SyncLabJSON", "SyncLabProtocol", "SyncLabScenario", "SyncLabHistory", "SyncLabChecker", "SyncLabResult", "SyncLabSimulation",
            "SyncLabRunner",
        ], swiftSettings: strict),
        // The command line. The only place allowed to read the wall clock.
        .target(name: "SyncLabCLI", dependencies: [
            "SyncLab", "SyncLabExplore", "SyncLabKernel", "SyncLabJSON", "SyncLabScenario", "SyncLabSimulation", "SyncLabRunner", "SyncLabReports", "SyncLabHistory", "SyncLabChecker", "SyncLabProtocol",
        ], swiftSettings: strict),
        // The `synclab` executable: a one-line call into SyncLabCLI.
        .executableTarget(name: "synclab", dependencies: ["SyncLabCLI"], swiftSettings: strict),

        .testTarget(name: "SimKernelTests", dependencies: ["SyncLabKernel"], swiftSettings: strict),
        .testTarget(name: "JSONTextTests", dependencies: ["SyncLabJSON"], swiftSettings: strict),
        .testTarget(name: "CheckerTests", dependencies: ["SyncLabChecker", "SyncLabHistory", "SyncLabProtocol", "SyncLabKernel"], swiftSettings: strict),
        .testTarget(name: "ScenarioTests", dependencies: ["SyncLabScenario", "SyncLabJSON", "SyncLabProtocol", "SyncLabKernel"], swiftSettings: strict),
        // KVSTests' end-to-end tests drive the public World; the engine-level ones use the modules below it.
        .testTarget(name: "KVSTests", dependencies: ["SyncLab", "SyncLabEngines", "SyncLabCloud", "SyncLabProtocol", "SyncLabKernel"], swiftSettings: strict),
        // DocumentTests' end-to-end tests drive the public World; the engine-level ones use the modules below it.
        .testTarget(name: "DocumentTests", dependencies: ["SyncLab", "SyncLabApps", "SyncLabEngines", "SyncLabCloud", "SyncLabProtocol", "SyncLabKernel"], swiftSettings: strict),
        // RecordTests' end-to-end tests drive the public World; the engine-level ones use the modules below it.
        .testTarget(name: "RecordTests", dependencies: ["SyncLab", "SyncLabEngines", "SyncLabCloud", "SyncLabProtocol", "SyncLabKernel"], swiftSettings: strict),
        .testTarget(name: "ReportTests", dependencies: [
            "SyncLabReports", "SyncLabSimulation", "SyncLabRunner", "SyncLabScenario", "SyncLabJSON", "SyncLabHistory", "SyncLabChecker", "SyncLabProtocol", "SyncLabKernel",
        ], exclude: ["Goldens", "Fixtures"], swiftSettings: strict),
        .testTarget(name: "LibraryTests", dependencies: ["SyncLab", "SyncLabApps", "SyncLabTesting", "SyncLabCLI"], exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(name: "ExploreTests", dependencies: ["SyncLabExplore", "SyncLabScenario", "SyncLabSimulation", "SyncLabRunner", "SyncLabJSON"], swiftSettings: strict),
        .testTarget(name: "SimulationTests", dependencies: [
            "synclab", "SyncLabCLI", "SyncLabSimulation", "SyncLabApps", "SyncLabRunner", "SyncLabScenario", "SyncLabHistory", "SyncLabChecker", "SyncLabProtocol", "SyncLabKernel", "SyncLabJSON", "SyncLabReports",
        ], swiftSettings: strict),
    ]
)
