import Foundation
import SyncLabJSON

/// Removes the reports an earlier run of the same scenario file left in its output folder that
/// this run's layout no longer has: the folders of variants since renamed or removed, the
/// variant folders of a scenario that now has none, and the single run's `trace.jsonl` and
/// `result.json` of a scenario that now has variants (SPEC §8's layout; its `timeline.html` and
/// `report.md` are overwritten by the comparison).
///
/// Only what SyncLab itself wrote for this file goes: a folder is removed only when it holds
/// nothing but regular files named as a run's reports (`trace.jsonl`, `result.json`,
/// `timeline.html`, `report.md`), among them a `result.json` whose `file` has this scenario
/// file's stem. Anything else — another file or folder beside them, a symlink, another
/// scenario's reports (`--out Reports` holds every scenario's folder), a folder named as a
/// current variant ignoring case — is left alone, so a user's files are never deleted.
public enum StaleReports {
    /// The files `ReportWriter` writes for one run.
    static let runFiles: Set<String> = ["trace.jsonl", "result.json", "timeline.html", "report.md"]

    /// - Parameters:
    ///   - folder: the scenario's output folder.
    ///   - variantFolders: the variant folders the scenario writes now (`VariantPaths.folders`);
    ///     empty when it writes one run straight into `folder`.
    ///   - file: the scenario file as given on the command line (its stem is compared).
    /// - Returns: what was removed, relative to `folder` (a folder ends in `/`), sorted.
    @discardableResult
    public static func remove(in folder: String, variantFolders: [String], file: String) -> [String] {
        let fileManager = FileManager.default
        let stem = Self.stem(file)
        var removed: [String] = []
        let kept = Set(variantFolders.map { $0.lowercased() })
        let entries = ((try? fileManager.contentsOfDirectory(atPath: folder)) ?? []).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for entry in entries where !kept.contains(entry.lowercased()) {
            let path = folder + "/" + entry
            guard isDirectory(path), let files = try? fileManager.contentsOfDirectory(atPath: path), !files.isEmpty,
                  files.allSatisfy({ runFiles.contains($0) && isRegularFile(path + "/" + $0) }),
                  writtenFor(stem, resultAt: path + "/result.json") else { continue }
            for name in files.sorted() { try? fileManager.removeItem(atPath: path + "/" + name) }
            // Empty now unless something appeared meanwhile: then it stays, with that.
            if (try? fileManager.contentsOfDirectory(atPath: path))?.isEmpty == true {
                try? fileManager.removeItem(atPath: path)
                removed.append(entry + "/")
            }
        }
        if !variantFolders.isEmpty, writtenFor(stem, resultAt: folder + "/result.json") {
            for name in ["result.json", "trace.jsonl"] where isRegularFile(folder + "/" + name) {
                if (try? fileManager.removeItem(atPath: folder + "/" + name)) != nil { removed.append(name) }
            }
        }
        return removed
    }

    /// `Scenarios/a.json5` → `a`: the stem `synclab run` names a scenario's folder by. The
    /// extension in any case (`A.JSON` → `A`), as a folder's scenarios are found
    /// (`isScenarioName`).
    public static func stem(_ file: String) -> String {
        var name = (file as NSString).lastPathComponent
        let lowered = name.lowercased()
        for suffix in [".json5", ".json"] where lowered.hasSuffix(suffix) { name.removeLast(suffix.count); break }
        return name
    }

    /// Whether a file name found in a folder names a scenario: `.json` or `.json5`, in any case
    /// (`Checkout.JSON`, as some tools and file systems write it, was skipped silently: a
    /// folder run never ran it), and not hidden.
    public static func isScenarioName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return !name.hasPrefix(".") && (lowered.hasSuffix(".json") || lowered.hasSuffix(".json5"))
    }

    /// Whether `path` is a SyncLab RESULT written for a scenario file of that stem.
    private static func writtenFor(_ stem: String, resultAt path: String) -> Bool {
        guard isRegularFile(path), let data = FileManager.default.contents(atPath: path),
              let node = try? JSON5Reader.parse(bytes: [UInt8](data)),
              node.members?.first?.key == "scenario", node["variant"]?.string != nil,
              let file = node["file"]?.string else { return false }
        return Self.stem(file) == stem
    }

    /// `lstat`'s view: a symlink to a folder is not a folder here.
    private static func isDirectory(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeDirectory
    }

    private static func isRegularFile(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }
}
