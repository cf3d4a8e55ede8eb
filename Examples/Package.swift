// swift-tools-version:6.0
// Example apps as an app team would write them, tested against SyncLab (docs/LIBRARY.md).
// A separate package that depends on SyncLab by path, as a team's own package would.
import PackageDescription

let package = Package(
    name: "SyncLabExamples",
    dependencies: [.package(name: "SyncLab", path: "..")],
    targets: [
        // (a) A game that keeps the highest score in NSUbiquitousKeyValueStore.
        .target(name: "HighScoreGame", dependencies: [.product(name: "SyncLab", package: "SyncLab")]),
        // (b) A notes app with its own document conflict resolver.
        .target(name: "Notes", dependencies: [.product(name: "SyncLab", package: "SyncLab")]),
        // (c) A to-do app with its own CKSyncEngine delegate and local database.
        .target(name: "Todos", dependencies: [.product(name: "SyncLab", package: "SyncLab")]),
        .testTarget(name: "HighScoreGameTests", dependencies: ["HighScoreGame", .product(name: "SyncLabTesting", package: "SyncLab")]),
        .testTarget(name: "NotesTests", dependencies: ["Notes", .product(name: "SyncLabTesting", package: "SyncLab")]),
        .testTarget(name: "TodosTests", dependencies: ["Todos", .product(name: "SyncLabTesting", package: "SyncLab")]),
    ]
)
