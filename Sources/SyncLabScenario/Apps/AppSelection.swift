import SyncLabProtocol

/// An `apps` section as written (SPEC §9): the app named for each store, nil where none is named.
///
/// Written at the top level, in a variant (merged over the base's store by store) and per device
/// (over the run's). `default` names the store's default app.
public struct AppSelection: Hashable, Sendable {
    public var kvs: String?
    public var documents: String?
    public var records: String?

    public init(kvs: String? = nil, documents: String? = nil, records: String? = nil) {
        self.kvs = kvs; self.documents = documents; self.records = records
    }

    /// The name given for `store`, if any.
    public subscript(store: Store) -> String? {
        get {
            switch store {
            case .kvs: return kvs
            case .documents: return documents
            case .records: return records
            }
        }
        set {
            switch store {
            case .kvs: kvs = newValue
            case .documents: documents = newValue
            case .records: records = newValue
            }
        }
    }

    /// True when every name given is `default` or a built-in app's (`AppNames.builtIn`): the
    /// `synclab` command line can run it, with no team executable (replay lines say so).
    public var namesOnlyBuiltIns: Bool {
        Store.allCases.allSatisfy { store in
            guard let name = self[store], name != AppNames.defaultName else { return true }
            return AppNames.builtIn.names(for: store).contains(name)
        }
    }

    /// `overrides`' names where it gives one, these elsewhere.
    public func merged(with overrides: AppSelection) -> AppSelection {
        AppSelection(kvs: overrides.kvs ?? kvs, documents: overrides.documents ?? documents, records: overrides.records ?? records)
    }
}
