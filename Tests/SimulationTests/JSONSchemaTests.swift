import Foundation
import Testing
import SyncLabProtocol
@testable import SyncLabScenario

/// `docs/synclab.schema.json` (JSON Schema draft 2020-12, for editors) names exactly the keys,
/// ops and values the reader accepts, so an editor never flags a valid file nor completes a key
/// the validator refuses.
@Suite("The JSON Schema matches the reader")
struct JSONSchemaTests {
    let schema: [String: Any]

    init() throws {
        let url = ReferenceDoc.root.appendingPathComponent("docs/synclab.schema.json")
        schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The object at a path of keys (`["$defs", "device"]`), or an empty one.
    private func node(_ path: [String]) -> [String: Any] {
        var current: Any = schema
        for key in path { current = (current as? [String: Any])?[key] ?? [:] }
        return current as? [String: Any] ?? [:]
    }

    private func propertyNames(_ path: [String]) -> Set<String> {
        Set((node(path)["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
    }

    private func enumValues(_ path: [String]) -> Set<String> {
        Set(node(path)["enum"] as? [String] ?? [])
    }

    /// `arriving`: names in the schema before the reader learns them, tolerated until then.
    private func expectSame(_ schemaNames: Set<String>, _ code: [String], _ what: String, arriving: Set<String> = [],
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let codeSet = Set(code)
        #expect(codeSet.subtracting(schemaNames).isEmpty, "\(what) the reader accepts but the schema lacks: \(codeSet.subtracting(schemaNames).sorted())", sourceLocation: sourceLocation)
        let extra = schemaNames.subtracting(codeSet).subtracting(arriving)
        #expect(extra.isEmpty, "\(what) in the schema that the reader refuses: \(extra.sorted())", sourceLocation: sourceLocation)
    }

    @Test func theSchemaIsDraft2020_12AndClosesTheTopLevel() {
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["additionalProperties"] as? Bool == false)
        #expect(Set(schema["required"] as? [String] ?? []) == ["format", "name", "devices"])
        #expect(node(["properties", "format"])["const"] as? String == ScenarioResolver.format)
    }

    @Test func everySectionHasTheReadersKeys() {
        expectSame(propertyNames([]), ScenarioResolver.topLevelKeys, "top-level keys")
        expectSame(propertyNames(["$defs", "device"]), ScenarioKeys.device, "device keys")
        expectSame(propertyNames(["$defs", "variant"]), ScenarioKeys.variant, "variant keys")
        expectSame(propertyNames(["$defs", "clock"]), ScenarioKeys.clock, "clock keys")
        expectSame(propertyNames(["$defs", "link"]), ScenarioReader.linkKeys, "link settings")
        expectSame(propertyNames(["$defs", "end"]), ScenarioKeys.end, "end keys")
        expectSame(propertyNames(["$defs", "limits"]), ScenarioKeys.limits, "limits")
        expectSame(propertyNames(["$defs", "limits", "properties", "kvs"]), ScenarioKeys.kvsLimits, "KVS limits")
        expectSame(propertyNames(["$defs", "limits", "properties", "records"]), ScenarioKeys.recordLimits, "record limits")
        expectSame(propertyNames(["$defs", "expect"]), ExpectationResolver.keys, "expect keys")
        expectSame(propertyNames(["$defs", "anomalyPattern"]), ScenarioKeys.anomalyPattern, "anomaly pattern keys")
        expectSame(propertyNames(["$defs", "notificationExpectation"]), ScenarioKeys.notification, "notification expectation keys")
        expectSame(propertyNames(["$defs", "itemValues"]), ScenarioKeys.itemSections, "item sections")
        expectSame(propertyNames(["$defs", "atomicRecord"]), ScenarioKeys.atomicRecord, "atomic record keys")
        expectSame(propertyNames(["$defs", "apps"]), Store.allCases.map(\.rawValue), "stores under apps")
    }

    @Test func everyEngineSettingAndValueIsTheReaders() {
        expectSame(propertyNames(["$defs", "engine"]), ScenarioKeys.engine.map(\.section), "engine sections")
        for (section, keys) in ScenarioKeys.engine {
            expectSame(propertyNames(["$defs", "engine", "properties", section]), keys, "engine.\(section) keys")
        }
        let values: [([String], [String])] = [
            (["kvs", "timestampSource"], TimestampSource.allCases.map(\.rawValue)),
            (["documents", "conflict"], DocumentConflictPolicy.allCases.map(\.rawValue)),
            (["documents", "winner"], DocumentWinner.allCases.map(\.rawValue)),
            (["records", "conflict"], RecordConflictPolicy.allCases.map(\.rawValue)),
            (["records", "savePolicy"], SavePolicy.allCases.map(\.rawValue)),
        ]
        for (path, cases) in values {
            expectSame(enumValues(["$defs", "engine", "properties", path[0], "properties", path[1]]), cases, "values of engine.\(path.joined(separator: "."))")
        }
        expectSame(enumValues(["properties", "environment"]), SchemaEnvironment.allCases.map(\.rawValue), "environments")
    }

    @Test func everyLatencyDistributionHasItsParameters() {
        let branches = node(["$defs", "latency"])["oneOf"] as? [[String: Any]] ?? []
        var found: [String: Set<String>] = [:]
        for branch in branches {
            guard let properties = branch["properties"] as? [String: Any], let dist = (properties["dist"] as? [String: Any])?["const"] as? String else { continue }
            found[dist] = Set(properties.keys).subtracting(["dist"])
        }
        expectSame(Set(found.keys), ScenarioKeys.latencyDistributions.map(\.dist), "latency distributions")
        for (dist, parameters) in ScenarioKeys.latencyDistributions {
            expectSame(found[dist] ?? [], parameters, "parameters of \(dist)")
        }
    }

    @Test func everyAnomalyKindAndNotificationReasonIsTheReaders() {
        expectSame(enumValues(["$defs", "anomalyKind"]), ExpectationResolver.anomalyKinds, "anomaly kinds")
        expectSame(enumValues(["$defs", "notificationExpectation", "properties", "reason"]), AppNotification.reasons, "notification reasons")
        expectSame(enumValues(["$defs", "database"]), DatabaseScope.allCases.map(\.rawValue), "databases")
    }

    /// Each op is one `if op = NAME then …` branch of the step, with the op's arguments as its
    /// properties and exactly the reader's required keys (plus `device`, except on the cloud).
    @Test func everyOpHasItsArgumentsAndRequiredKeys() {
        let step = node(["$defs", "step"])
        #expect(step["unevaluatedProperties"] as? Bool == false)
        #expect(Set(step["required"] as? [String] ?? []) == ["at", "op"])
        expectSame(enumValues(["$defs", "step", "properties", "op"]), StepResolver.ops.map(\.name), "ops")
        var branches: [String: [String: Any]] = [:]
        for branch in step["allOf"] as? [[String: Any]] ?? [] {
            let condition = ((branch["if"] as? [String: Any])?["properties"] as? [String: Any])?["op"] as? [String: Any]
            guard let name = condition?["const"] as? String, let then = branch["then"] as? [String: Any] else { continue }
            branches[name] = then
        }
        expectSame(Set(branches.keys), StepResolver.ops.map(\.name), "ops with a branch")
        for spec in StepResolver.ops {
            guard let then = branches[spec.name] else { continue }
            let stepKeys = StepResolver.stepKeys.filter { !(spec.onCloud && $0 == "device") }
            expectSame(Set((then["properties"] as? [String: Any])?.keys.map { $0 } ?? []), stepKeys + spec.arguments, "keys of \(spec.name)")
            expectSame(Set(then["required"] as? [String] ?? []), spec.required + (spec.onCloud ? [] : ["device"]), "required keys of \(spec.name)")
        }
    }
}
