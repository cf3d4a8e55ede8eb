import Foundation
import SyncLabJSON
import SyncLabKernel

/// Reads, validates and resolves scenario files (SPEC §5) into `ScenarioFile`s.
///
/// Either the whole file is valid and every run is resolved, or the caller gets every error
/// found: bad input never runs half a scenario.
public enum ScenarioLoader {
    /// Reads the file at `path` and parses it. A missing or unreadable file is an error too.
    /// - Parameter apps: the app names `apps` sections may use (the built-in apps by default).
    public static func load(path: String, apps: AppNames = .builtIn) -> Result<ScenarioFile, ScenarioErrors> {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let reason = !exists ? "no such file" : isDirectory.boolValue ? "it is a directory, not a scenario file" : "the file cannot be read"
            return .failure(ScenarioErrors(errors: [ScenarioError(file: path, position: nil, path: "(root)", message: reason)]))
        }
        return parse(bytes: [UInt8](data), path: path, apps: apps)
    }

    /// Parses scenario text. `path` is used in messages and kept in the result.
    public static func parse(text: String, path: String, apps: AppNames = .builtIn) -> Result<ScenarioFile, ScenarioErrors> {
        parse(bytes: Array(text.utf8), path: path, apps: apps)
    }

    /// Parses the bytes of a scenario file. Binary or non-UTF-8 input is one error.
    public static func parse(bytes: [UInt8], path: String, apps: AppNames = .builtIn) -> Result<ScenarioFile, ScenarioErrors> {
        let root: JSONNode
        var duplicates: [JSONParseError] = []
        do {
            root = try JSON5Reader.parse(bytes: bytes, duplicates: &duplicates)
        } catch {
            let message = "invalid JSON: \(error.message)"
            return .failure(ScenarioErrors(errors: [ScenarioError(file: path, position: error.position, path: error.path ?? "(root)", message: message)]))
        }
        // A result.json that `synclab run` wrote (a folder of reports named by mistake): one
        // error that says so, not one per RESULT key and per missing scenario key.
        if root.members?.first?.key == "scenario", root["variant"] != nil, root["traceDigest"] != nil, root["format"] == nil {
            var source = ""
            if case .string(let file)? = root["file"]?.value { source = " for \(file)" }
            let message = "this is a run's result (a result.json that synclab run wrote\(source)), not a scenario: name the scenario file itself"
            return .failure(ScenarioErrors(errors: [ScenarioError(file: path, position: root.position, path: "(root)", message: message)]))
        }
        let reader = ScenarioReader(file: path, appNames: apps)
        // A duplicate key is an error, but not the end of validation: the rest is checked too.
        for duplicate in duplicates {
            reader.report("invalid JSON: \(duplicate.message)", at: duplicate.position, path: JSONPath(text: duplicate.path ?? ""))
        }
        let scenario = ScenarioResolver(reader: reader).resolve(root)
        let errors = reader.sortedErrors()
        if let scenario, errors.isEmpty { return .success(scenario) }
        if errors.isEmpty {
            // A resolver that gave up must have said why; never return an unexplained failure.
            return .failure(ScenarioErrors(errors: [ScenarioError(file: path, position: root.position, path: "(root)", message: "the scenario could not be resolved")]))
        }
        return .failure(ScenarioErrors(errors: errors))
    }
}

extension ScenarioLoader {
    /// Reads one step object (`{"device": "A", "op": "kvs.set", …}`, no `at` needed) against a
    /// run's devices and accounts, with the validation and messages a file's step gets. The
    /// stepping world uses it, so an op acted out from Swift is checked exactly as one written.
    /// - Parameters:
    ///   - file: how messages name where the step came from (`World`).
    ///   - path: the JSON path prefix of the step in messages (`steps`: they read `steps[0].op`).
    ///   - crashedSince: per device, since when it is crashed now (nil: running), so a restart
    ///     or an op on a crashed device is judged against the world's state, as in a file.
    public static func step(bytes: [UInt8], for run: ScenarioRun, file: String, path: String, crashedSince: [SimInstant?] = []) -> Result<Step, ScenarioErrors> {
        let root: JSONNode
        do {
            root = try JSON5Reader.parse(bytes: bytes)
        } catch {
            return .failure(ScenarioErrors(errors: [ScenarioError(file: file, position: error.position, path: error.path ?? "(root)", message: "invalid JSON: \(error.message)")]))
        }
        let reader = ScenarioReader(file: file)
        let array = JSONNode(value: .array([root]), position: root.position)
        var resolver = StepResolver(reader: reader, deviceIDs: run.devices.map(\.id), accounts: run.accounts, duration: nil)
        resolver.crashedBefore = crashedSince
        let steps = resolver.resolve(array, JSONPath(text: path))
        let errors = reader.sortedErrors()
        guard errors.isEmpty, let step = steps.first else {
            return .failure(ScenarioErrors(errors: errors.isEmpty ? [ScenarioError(file: file, position: nil, path: path, message: "no step")] : errors))
        }
        return .success(step)
    }
}
