/// Folder names for variants under a scenario's output folder (SPEC §8: `OUT/<variant>/`).
public enum VariantPaths {
    /// The variant's folder name: the name itself when it is a plain file name (letters, digits,
    /// `.`, `_`, `-`), otherwise with every other character replaced by `_`, so a hostile
    /// variant name cannot leave the output folder or break a link.
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
}
