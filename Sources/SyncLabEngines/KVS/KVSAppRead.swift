import SyncLabProtocol

/// One value a hosted KVS app read: its key and the write behind it (`KVSAppAnswer.readList`).
///
/// A struct, not the `(key:, write:)` tuple of `KVSAppAnswer.reads`: a tuple's elements are
/// destroyed through the run time's generic tuple witness (`tuple_destroy`, about 175
/// instructions a read). The platform itself no longer lists reads per notification: its path
/// (`KVSAppHosting.handle(_:values:device:notingReadsIn:)`) notes them straight into its buffer.
package struct KVSAppRead: Sendable {
    package var key: String
    package var write: WriteID

    package init(key: String, write: WriteID) { self.key = key; self.write = write }
}
