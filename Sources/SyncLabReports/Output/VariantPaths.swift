/// Folder names for variants under a scenario's output folder (SPEC §8: `OUT/<variant>/`).
public enum VariantPaths {
    /// The variant's folder name on its own: the name itself when it is a plain file name
    /// (letters, digits, `.`, `_`, `-`), otherwise with every other character replaced by `_`, so
    /// a hostile variant name cannot leave the output folder or break a link.
    ///
    /// Two names can give one folder this way (`a<`, `a>`); `folders(for:)` resolves that.
    public static func folder(_ variant: String) -> String {
        var name = ""
        for scalar in variant.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": name.unicodeScalars.append(scalar)
            default: name += "_"
            }
        }
        if name.isEmpty || name == "." || name == ".." { name = "_" + name }
        if name.hasPrefix(".") { name = "_" + name }
        return name
    }

    /// The files a scenario's output folder holds itself, which no variant's folder may take:
    /// the comparison's (`ReportSet`), and a single run's, which an earlier run of the file,
    /// before it had variants, left there until `StaleReports` removes them after the run. A
    /// variant called `timeline.html` or `report.md` (any text is a variant name) got that
    /// folder, and the comparison then could not be written: `synclab run` ran every variant and
    /// exited 2 with "OUT/timeline.html is a folder, not a file".
    public static let comparisonFiles = ["timeline.html", "report.md", "result.json", "trace.jsonl"]

    /// A distinct folder for each of a scenario's variants: variant name → folder.
    ///
    /// Folders must differ even ignoring case, because macOS and Windows file systems do
    /// (`Merge/` and `merge/` are one folder there). The rule, so that a folder depends only on
    /// the set of names and never on the order they are listed in:
    /// 1. `base` keeps `base/`; the output folder's own file names (`comparisonFiles`) are
    ///    taken from the start.
    /// 2. The other names that are plain file names keep their own name, in UTF-8 order; one
    ///    that equals an earlier folder ignoring case falls through to step 3.
    /// 3. The rest, in UTF-8 order, get `folder(_:)`'s name, or, when that is taken (ignoring
    ///    case), that name with the first free suffix of `-2`, `-3`, ….
    ///
    /// - Parameter variants: every variant of the scenario (not only those being run), so a
    ///   variant's folder is the same whichever variants a run selects.
    /// - Returns: a folder for each name, in the order of `variants`.
    /// - Complexity: O(n log n) in the number of variants, plus the suffixes tried.
    public static func folders(for variants: [String]) -> [String] {
        let names = variants.filter { $0 != "base" }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var taken = Set(comparisonFiles)
        if variants.contains("base") { taken.insert("base") }
        var chosen: [String: String] = variants.contains("base") ? ["base": "base"] : [:]
        var renamed: [String] = []
        for name in names where chosen[name] == nil {
            if folder(name) == name, taken.insert(name.lowercased()).inserted {
                chosen[name] = name
            } else {
                renamed.append(name)
            }
        }
        for name in renamed where chosen[name] == nil {
            let plain = folder(name)
            var candidate = plain
            var suffix = 2
            while !taken.insert(candidate.lowercased()).inserted {
                candidate = "\(plain)-\(suffix)"
                suffix += 1
            }
            chosen[name] = candidate
        }
        // Every name got a folder above; a missing one is a bug in this function.
        return variants.map { name in
            guard let folder = chosen[name] else { preconditionFailure("no folder chosen for variant \(name)") }
            return folder
        }
    }
}
