import SyncLabProtocol

/// The engine's local documents by path, with the versions a fetch names as held
/// (`DocumentEngine.heldVersions`) kept beside them as they change.
///
/// Every fetch used to build the held map from every document: O(documents) hashing per fetch,
/// an eighth of the day workload's profile with reports. Each change through the subscript now
/// refreshes its one path's entry, so a fetch shares the map (copy-on-write) in O(1), and a
/// change costs what it changed. The map is derived state: it always equals what a pass over
/// `byPath` would build (`heldFromScratch`, checked by the engine's tests).
struct DocumentTable: Sendable {
    /// Local documents by path (lookups only; listings sort by path).
    private(set) var byPath: [String: LocalDocument] = [:]
    /// Per path with any, the versions whose content the device keeps (see `held(by:)`).
    private(set) var held: [String: HeldVersions] = [:]

    init() {}

    var count: Int { byPath.count }
    var keys: Dictionary<String, LocalDocument>.Keys { byPath.keys }
    var values: Dictionary<String, LocalDocument>.Values { byPath.values }

    /// The document at `path`; a change through it refreshes the path's held versions.
    subscript(path: String) -> LocalDocument? {
        get { byPath[path] }
        _modify {
            defer { held[path] = byPath[path].flatMap(Self.held(by:)) }
            yield &byPath[path]
        }
        set {
            byPath[path] = newValue
            held[path] = newValue.flatMap(Self.held(by:))
        }
    }

    mutating func removeAll() {
        byPath = [:]
        held = [:]
    }

    /// The versions whose content `document` keeps: the cloud's current version as last heard,
    /// and its own versions the cloud has not acknowledged; nil when none has content.
    static func held(by document: LocalDocument) -> HeldVersions? {
        var versions = HeldVersions()
        if let current = document.cloud?.current, case .content = current.body { versions.current = current.id }
        for version in document.pending { if case .content = version.body { versions.own.append(version.id) } }
        return versions.isEmpty ? nil : versions
    }

    /// The held map built from every document, as fetches did before it was kept: for tests.
    var heldFromScratch: [String: HeldVersions] {
        var result: [String: HeldVersions] = [:]
        for (path, document) in byPath { if let versions = Self.held(by: document) { result[path] = versions } }
        return result
    }
}

extension DocumentTable: Sequence {
    func makeIterator() -> Dictionary<String, LocalDocument>.Iterator { byPath.makeIterator() }
}
