import Foundation
import SyncLabReports

/// Expands FILE|DIR arguments into scenario files: a folder means every `.json`/`.json5` file in
/// it (not recursive, not hidden), sorted by name so the order is the same everywhere; a path
/// named twice counts once.
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
                let base = trimmingTrailingSlashes(argument)
                // Hidden files (an editor's `.#x.json`, macOS's `._x.json` beside a copied file)
                // and folders named like scenarios are not scenarios; named as arguments, they are read.
                let scenarioNames = names.filter { name in
                    guard StaleReports.isScenarioName(name) else { return false }
                    var entryIsDirectory: ObjCBool = false
                    return FileManager.default.fileExists(atPath: "\(base)/\(name)", isDirectory: &entryIsDirectory) && !entryIsDirectory.boolValue
                }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                files += scenarioNames.map { base == "/" ? "/\($0)" : "\(base)/\($0)" }
            } else {
                files.append(argument)
            }
        }
        guard !files.isEmpty else { throw UsageError("no scenario files found in \(arguments.joined(separator: " "))") }
        // A file named twice (`Scenarios Scenarios/a.json`, `a.json ./a.json`) runs once: the
        // same file however its folder is spelt (it was "would both write their reports to").
        var seen: Set<String> = []
        return files.filter { seen.insert(sameFileKey($0)).inserted }
    }

    /// The folder each file's reports go to (SPEC §7: `--out`, default `Reports/<stem>/`; with
    /// several files, `OUT/<stem>/`), in the order of `files`.
    ///
    /// Two files whose folders are one (`a/same.json b/same.json`, or `Same.json same.json5`,
    /// which are one folder on file systems that ignore case) would mix their reports: that is a
    /// usage error, found before anything runs, naming both files and the folder.
    static func outputFolders(_ files: [String], out: String?) throws(UsageError) -> [String] {
        if let out, out.isEmpty { throw UsageError("--out needs a folder name, got an empty one") }
        for file in files where files.count > 1 || out == nil {
            let name = stem(file)
            // `...json` has the stem `..`: its reports would land outside the output folder.
            if name.isEmpty || name == "." || name == ".." || name.contains("/") {
                throw UsageError("\(file): the file name gives no folder name for its reports (\"\(name)\" would leave the output folder): rename the file, or run it alone with --out")
            }
        }
        // `--out o/` (a shell completes folders so) writes and says `o/kq/`, not `o//kq/`.
        let out = out.map(trimmingTrailingSlashes)
        let folders = files.map { file in
            if let out { return files.count == 1 ? out : out == "/" ? "/\(stem(file))" : "\(out)/\(stem(file))" }
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

    /// `Scenarios//` → `Scenarios` (`/` stays `/`): a folder as the paths built on it should
    /// spell it (`Scenarios//a.json` was the `file` of RESULT and the replay line).
    static func trimmingTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// `Scenarios/airplane-lost-update.json` → `airplane-lost-update`.
    static func stem(_ path: String) -> String { StaleReports.stem(path) }

    /// Checks, before anything runs, that every output folder can be made and written and that
    /// `junit` (if any) is not a folder: a bad `--out` or `--junit` (an existing file,
    /// `/dev/null`, `/proc/…`, a folder for `--junit`) is a usage error naming the path, not a
    /// failure after the whole run. Creates the folders.
    static func checkOutputs(folders: [String], junit: String?) throws(UsageError) {
        for folder in Set(folders).sorted() {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw UsageError("\(folder) exists and is not a folder: --out names the folder reports are written into")
            }
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw UsageError("cannot create the output folder \(folder): \(reason(error))")
            }
            guard FileManager.default.isWritableFile(atPath: folder) else { throw UsageError("cannot write into the output folder \(folder): permission denied") }
        }
        guard let junit else { return }
        if junit.isEmpty { throw UsageError("--junit needs a file name, got an empty one") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: junit, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw UsageError("--junit \(junit) is a folder: name the XML file to write") }
            guard FileManager.default.isWritableFile(atPath: junit) else { throw UsageError("cannot write --junit \(junit): permission denied") }
            return
        }
        let parent = (junit as NSString).deletingLastPathComponent
        if !parent.isEmpty {
            if FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw UsageError("cannot write --junit \(junit): \(parent) is not a folder")
            }
            do { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) } catch {
                throw UsageError("cannot create the folder of --junit \(junit): \(reason(error))")
            }
        }
        guard FileManager.default.isWritableFile(atPath: parent.isEmpty ? "." : parent) else { throw UsageError("cannot write --junit \(junit): permission denied") }
    }

    /// Refuses outputs that would overwrite an input or one another: `--junit` naming a scenario
    /// file being run (it was replaced by the XML) or a report the run writes (a `result.json`
    /// holding JUnit XML), and an output folder whose report files are scenario files named
    /// (`--out .` beside a scenario called `result.json`). Paths are compared as the file system
    /// resolves them (symlinks, `.`, `..`); call after the output folders exist.
    /// - Parameters:
    ///   - reports: every file the runs will write (`reportFiles`).
    ///   - inputs: every scenario file named, valid or not.
    static func checkOverwrites(reports: [String], junit: String?, inputs: [String]) throws(UsageError) {
        let inputByPath = Dictionary(inputs.map { (canonical($0), $0) }, uniquingKeysWith: { first, _ in first })
        for report in reports {
            if let input = inputByPath[canonical(report)] {
                throw UsageError("the reports would overwrite the scenario file \(input) (as \(report)): choose another --out")
            }
        }
        guard let junit, !junit.isEmpty else { return }
        let target = canonical(junit)
        if let input = inputByPath[target] {
            throw UsageError("--junit \(junit) is the scenario file \(input): it would be overwritten by the XML; name another file")
        }
        if let report = reports.first(where: { canonical($0) == target }) {
            throw UsageError("--junit \(junit) is a report this run writes (\(report)): name another file")
        }
    }

    /// The files `synclab run` writes for a scenario into `folder` (SPEC §8): one run's files
    /// straight in it, or with variants the comparison in it and each run's files in its
    /// variant's folder.
    static func reportFiles(in folder: String, variants: [String]) -> [String] {
        let runFiles = ["trace.jsonl", "result.json", "timeline.html", "report.md"]
        if variants.count <= 1 { return runFiles.map { folder + "/" + $0 } }
        return ["timeline.html", "report.md"].map { folder + "/" + $0 }
            + VariantPaths.folders(for: variants).flatMap { variant in runFiles.map { folder + "/" + variant + "/" + $0 } }
    }

    /// One key for every spelling of a file's path: its folder resolved (`.`, `..`, symlinked
    /// folders) and its own name, so a file reached by a symlink of another name stays apart.
    static func sameFileKey(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        return url.deletingLastPathComponent().resolvingSymlinksInPath().path + "/" + url.lastPathComponent
    }

    /// `path` as the file system resolves it: its folder's real path (symlinks followed) and its
    /// name, so a file that does not exist yet compares too.
    private static func canonical(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let parent = url.deletingLastPathComponent().resolvingSymlinksInPath().path
        // The file itself may be a symlink to a scenario file.
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return url.resolvingSymlinksInPath().path
        }
        return parent + "/" + url.lastPathComponent
    }

    /// A file error in words: the POSIX reason when there is one, never a raw `NSError` dump.
    static func reason(_ error: any Error) -> String { FileErrorReason.text(error) }
}
