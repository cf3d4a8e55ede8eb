import Foundation

/// Expands FILE|DIR arguments into scenario files: a folder means every `.json`/`.json5` file in
/// it (not recursive), sorted by name so the order is the same everywhere; a path named twice
/// counts once.
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
        // A file named twice (`Scenarios Scenarios/a.json`) runs once.
        var seen: Set<String> = []
        return files.filter { seen.insert($0).inserted }
    }

    /// The folder each file's reports go to (SPEC §7: `--out`, default `Reports/<stem>/`; with
    /// several files, `OUT/<stem>/`), in the order of `files`.
    ///
    /// Two files whose folders are one (`a/same.json b/same.json`, or `Same.json same.json5`,
    /// which are one folder on file systems that ignore case) would mix their reports: that is a
    /// usage error, found before anything runs, naming both files and the folder.
    static func outputFolders(_ files: [String], out: String?) throws(UsageError) -> [String] {
        let folders = files.map { file in
            if let out { return files.count == 1 ? out : "\(out)/\(stem(file))" }
            return "Reports/\(stem(file))"
        }
        var firstByKey: [String: Int] = [:]
        for (index, folder) in folders.enumerated() {
            let key = folder.lowercased()
            guard let first = firstByKey[key] else { firstByKey[key] = index; continue }
            let sameCase = folders[first] == folder
            throw UsageError("\(files[first]) and \(files[index]) would both write their reports to \(folders[first])/"
                + (sameCase ? "" : " (folder names that differ only in case are one folder on macOS and Windows)")
                + ": run them separately, each with its own --out folder, or rename one of the files")
        }
        return folders
    }

    /// `Scenarios/airplane-lost-update.json` → `airplane-lost-update`.
    static func stem(_ path: String) -> String {
        var name = (path as NSString).lastPathComponent
        for suffix in [".json5", ".json"] where name.hasSuffix(suffix) { name.removeLast(suffix.count); break }
        return name
    }
}
