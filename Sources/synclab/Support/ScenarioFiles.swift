import Foundation

/// Expands FILE|DIR arguments into scenario files: a folder means every `.json`/`.json5` file in
/// it (not recursive), sorted by name so the order is the same everywhere.
enum ScenarioFiles {
    static func expand(_ arguments: [String]) throws(UsageError) -> [String] {
        var files: [String] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw UsageError("\(argument): no such file or folder")
            }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
                let scenarioNames = names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".json5") }
                    .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                let base = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
                files += scenarioNames.map { "\(base)/\($0)" }
            } else {
                files.append(argument)
            }
        }
        guard !files.isEmpty else { throw UsageError("no scenario files found in \(arguments.joined(separator: " "))") }
        return files
    }

    /// `Scenarios/airplane-lost-update.json` → `airplane-lost-update`.
    static func stem(_ path: String) -> String {
        var name = (path as NSString).lastPathComponent
        for suffix in [".json5", ".json"] where name.hasSuffix(suffix) { name.removeLast(suffix.count); break }
        return name
    }
}
