import SyncLabScenario

/// `synclab validate FILE|DIR…`: checks scenario files without running them.
enum ValidateCommand {
    static let usage = """
    usage: synclab validate FILE|DIR…

    Checks scenario files and reports every error with file, line, column and JSON path.
    Exit status: 0 all valid, 2 at least one error.
    """

    static func main(_ arguments: [String], apps: AppNames = .builtIn) -> ExitStatus {
        let parsed: Arguments
        do { parsed = try Arguments(arguments, valued: [], flags: ["--help"]) } catch {
            Console.error("synclab validate: \(error.message)\n\(usage)"); return .badInput
        }
        if parsed.has("--help") { Console.out(usage); return .success }
        guard !parsed.positional.isEmpty else { Console.error("synclab validate: name at least one scenario file or folder\n\(usage)"); return .badInput }
        let files: [String]
        do { files = try ScenarioFiles.expand(parsed.positional) } catch { Console.error("synclab validate: \(error.message)"); return .badInput }
        var status = ExitStatus.success
        for file in files {
            switch ScenarioLoader.load(path: file, apps: apps) {
            case .success(let scenario):
                let variants = scenario.runs.map(\.variant).joined(separator: ", ")
                let steps = scenario.runs.first?.steps.count ?? 0
                Console.out("ok  \(file): \(scenario.name) (\(steps) steps; variants: \(variants))")
            case .failure(let errors):
                status = .badInput
                ValidationOutput.show(errors, annotate: ValidationOutput.annotate)
            }
        }
        return status
    }
}
