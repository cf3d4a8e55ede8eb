// swift-tools-version:6.0
// SyncLab: a deterministic simulator for apps that sync through iCloud-like services.
// No package dependencies: the toolchain only (SPEC §1).
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "SyncLab",
    products: [
        .executable(name: "synclab", targets: ["synclab"]),
        .library(name: "SyncLab", targets: [
            "SimKernel", "JSONText", "SyncProtocol", "CloudService", "DeviceEngines",
            "Scenario", "Checker", "Simulation", "Reports",
        ]),
    ],
    targets: [
        // Virtual time, the event queue, seeded randomness, hashing. Knows nothing of iCloud.
        .target(name: "SimKernel", swiftSettings: strict),
        // The JSON5 reader (positions, key order, number kinds) and the deterministic JSON writer.
        .target(name: "JSONText", swiftSettings: strict),
        // The vocabulary engines and the cloud share: values, ids, messages, observations.
        .target(name: "SyncProtocol", dependencies: ["SimKernel"], swiftSettings: strict),
        // The server side of the three services, sans-IO.
        .target(name: "CloudService", dependencies: ["SimKernel", "SyncProtocol"], swiftSettings: strict),
        // The client engines of the three services, sans-IO.
        .target(name: "DeviceEngines", dependencies: ["SimKernel", "SyncProtocol"], swiftSettings: strict),
        // Scenario files: parsing, validation, variants, step expansion.
        .target(name: "Scenario", dependencies: ["SimKernel", "JSONText", "SyncProtocol"], swiftSettings: strict),
        // The independent oracle: judges the history the simulator recorded.
        .target(name: "Checker", dependencies: ["SimKernel", "SyncProtocol"], swiftSettings: strict),
        // The world: devices, clocks, links, push, the run loop, the trace.
        .target(name: "Simulation", dependencies: [
            "SimKernel", "JSONText", "SyncProtocol", "CloudService", "DeviceEngines", "Scenario", "Checker",
        ], swiftSettings: strict),
        // result.json, timeline.html, report.md, JUnit.
        .target(name: "Reports", dependencies: ["SimKernel", "JSONText", "SyncProtocol", "Scenario", "Checker", "Simulation"], swiftSettings: strict),
        // The command line. The only place allowed to read the wall clock.
        .executableTarget(name: "synclab", dependencies: [
            "SimKernel", "JSONText", "Scenario", "Simulation", "Reports", "Checker", "SyncProtocol",
        ], swiftSettings: strict),

        .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"], swiftSettings: strict),
        .testTarget(name: "JSONTextTests", dependencies: ["JSONText"], swiftSettings: strict),
        .testTarget(name: "CheckerTests", dependencies: ["Checker", "SyncProtocol", "SimKernel"], swiftSettings: strict),
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario", "JSONText", "SyncProtocol", "SimKernel"], swiftSettings: strict),
        .testTarget(name: "KVSTests", dependencies: ["DeviceEngines", "CloudService", "SyncProtocol", "SimKernel"], swiftSettings: strict),
        .testTarget(name: "DocumentTests", dependencies: ["DeviceEngines", "CloudService", "SyncProtocol", "SimKernel"], swiftSettings: strict),
        .testTarget(name: "RecordTests", dependencies: ["DeviceEngines", "CloudService", "SyncProtocol", "SimKernel"], swiftSettings: strict),
        .testTarget(name: "ReportTests", dependencies: [
            "Reports", "Simulation", "Scenario", "JSONText", "Checker", "SyncProtocol", "SimKernel",
        ], exclude: ["Goldens", "Fixtures"], swiftSettings: strict),
        .testTarget(name: "SimulationTests", dependencies: [
            "synclab", "Simulation", "Scenario", "Checker", "SyncProtocol", "SimKernel", "JSONText", "Reports",
        ], swiftSettings: strict),
    ]
)
