/// One document upload: the document as it is on the device.
///
/// Local saves not yet uploaded fold into one upload: `version` is the latest, `chain` the
/// earlier local versions it descends from (as stubs, oldest first), and `base` the cloud version
/// the local edits were made on, not a newer one downloaded meanwhile.
public struct DocumentUpload: Hashable, Sendable {
    public var path: String
    public var version: DocumentVersion
    public var chain: [DocumentVersion]
    public var base: WriteID?
    /// Set when the upload is (or descends from) a merge that resolves a conflict.
    public var resolution: DocumentResolution?

    public init(path: String, version: DocumentVersion, chain: [DocumentVersion], base: WriteID?, resolution: DocumentResolution?) {
        self.path = path; self.version = version; self.chain = chain; self.base = base; self.resolution = resolution
    }
}
