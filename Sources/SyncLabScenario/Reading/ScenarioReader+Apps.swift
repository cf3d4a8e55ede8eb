import SyncLabJSON
import SyncLabProtocol

/// `apps` sections (SPEC §9): `{"kvs": NAME, "documents": NAME, "records": NAME}`.
extension ScenarioReader {
    /// Reads an `apps` section. Each name must be one the run's registry knows for its store
    /// (`default` included); an unknown one is reported with the known names.
    func apps(_ node: JSONNode, _ path: JSONPath) -> AppSelection {
        var selection = AppSelection()
        let stores = Store.allCases.map(\.rawValue)
        guard let members = members(node, path, allowed: stores, what: "apps (one app name per store, like {\"records\": \"merge\"})") else { return selection }
        for member in members {
            guard let store = Store(rawValue: member.key) else { continue }
            let valuePath = path.key(member.key)
            guard let name = string(member.value, valuePath, nonEmpty: true, what: "an app name") else { continue }
            let known = appNames.names(for: store)
            guard known.contains(name) else {
                let hint = Suggestion.hint(for: name, in: known)
                let list = known.map { "\"\($0)\"" }.joined(separator: ", ")
                // A name like no known one is most likely a team's app this registry lacks: say how
                // a team's app becomes known, not only that it is not.
                let howToRegister = hint.isEmpty
                    ? "; a team's own app is known once registered: `AppRegistry.register(\(store.rawValue):…)` from Swift, or, from the command line, "
                        + "through the team's own executable calling `SyncLabCommandLine.main(_:apps:)` with that registry (docs/LIBRARY.md)"
                    : ""
                report("unknown \(store.rawValue) app \"\(name)\"\(hint) (known \(store.rawValue) apps: \(list))\(howToRegister)", at: member.value.position, path: valuePath)
                continue
            }
            selection[store] = name
        }
        return selection
    }
}
