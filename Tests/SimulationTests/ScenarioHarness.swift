import Foundation
import SyncLabJSON
import SyncLabResult
import SyncLabScenario
@testable import SyncLabSimulation
import SyncLabRunner

/// Runs scenario text in-process and reads its trace back, for tests.
enum Harness {
    static func runs(_ text: String, file: String = "test.json") throws -> [ScenarioRunner.Judged] {
        switch ScenarioLoader.parse(text: text, path: file) {
        case .success(let scenario): return scenario.runs.map { ScenarioRunner.run($0) }
        case .failure(let errors): throw HarnessError(message: errors.errors.map(\.description).joined(separator: "\n"))
        }
    }

    static func run(_ text: String) throws -> ScenarioRunner.Judged {
        guard let first = try runs(text).first else { throw HarnessError(message: "no runs") }
        return first
    }

    /// The trace's lines as (time µs, event name, object members).
    static func events(_ judged: ScenarioRunner.Judged) throws -> [TraceLine] {
        let text = String(decoding: judged.outcome.trace, as: UTF8.self)
        return try text.split(separator: "\n").map { line in
            let node = try JSON5Reader.parse(String(line))
            guard case .object(let members) = node.value else { throw HarnessError(message: "not an object: \(line)") }
            var fields: [String: JSONValue] = [:]
            for member in members { fields[member.key] = member.value.value }
            guard case .integer(let time)? = fields["t_us"], case .string(let event)? = fields["ev"] else { throw HarnessError(message: "no t_us/ev: \(line)") }
            return TraceLine(time: time, event: event, fields: fields)
        }
    }
}

struct TraceLine {
    var time: Int64
    var event: String
    var fields: [String: JSONValue]
    func string(_ key: String) -> String? { if case .string(let value)? = fields[key] { return value }; return nil }
    func int(_ key: String) -> Int64? { if case .integer(let value)? = fields[key] { return value }; return nil }
}

struct HarnessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
