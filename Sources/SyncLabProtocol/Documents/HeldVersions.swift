import SyncLabKernel

/// The versions of one document whose content a device already holds, as a fetch names them
/// (`DocumentRequest.fetch(held:)`): the cloud's current version as the device last heard it,
/// and the device's own versions the cloud has not acknowledged yet.
///
/// Two fields rather than one list: most documents have nothing pending, and an empty array
/// costs no allocation, so naming every document of a large container on each fetch stays cheap.
public struct HeldVersions: Hashable, Sendable {
    /// The cloud's current version as last heard (nil: none with content).
    public var current: WriteID?
    /// The device's own versions not yet acknowledged, oldest first.
    public var own: [WriteID]

    public init(current: WriteID? = nil, own: [WriteID] = []) {
        self.current = current; self.own = own
    }

    /// Whether the device holds this version's content.
    public func contains(_ version: WriteID) -> Bool { current == version || own.contains(version) }

    /// Nothing held.
    public var isEmpty: Bool { current == nil && own.isEmpty }
}
