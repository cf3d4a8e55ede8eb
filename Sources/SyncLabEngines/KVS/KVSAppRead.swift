import SyncLabProtocol

/// One value a hosted KVS app read: its key and the write behind it (`KVSAppAnswer.readList`).
///
/// A struct, not the `(key:, write:)` tuple of `KVSAppAnswer.reads`: the platform empties and
/// refills a list of these at every notification, and a tuple's elements are destroyed through
/// the run time's generic tuple witness (`tuple_destroy`, about 175 instructions a read, 1.5% of
/// `bench --hosted` at 1,000 devices); a struct's through its own specialized code.
package struct KVSAppRead: Sendable {
    package var key: String
    package var write: WriteID

    package init(key: String, write: WriteID) { self.key = key; self.write = write }
}
