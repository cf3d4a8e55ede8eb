import SyncLabKernel
import SyncLabProtocol

/// The platform's side of a KVS app a device hosts (SPEC §9): told of `didChangeExternally`
/// (reason and keys as SPEC §4.1, quota violations included) and of what the user did, it
/// answers with what it does to the store. Sans-IO like the engines: the platform applies the
/// answer and carries the write ids.
public protocol KVSAppHosting {
    /// The app is told of `event`. `values` is the store as the app reads it now.
    mutating func handle(_ event: KVSAppEvent, values: KVSAppSnapshot) -> KVSAppAnswer

    /// The same, the platform's way: each value the app reads is appended to `notes` (the
    /// platform's buffer for every device's app) as a note for device `device`, and the app's
    /// store calls are returned. The default answers through `handle(_:values:)`; an adapter
    /// whose store notes its reads straight into `notes` saves a list of reads per notification
    /// and copying it over (docs/HOSTING.md "What hosting costs").
    mutating func handle(_ event: KVSAppEvent, values: KVSAppSnapshot, device: Int32,
                         notingReadsIn notes: inout [KVSAppPendingNote]) -> [KVSAppCommand]
}

extension KVSAppHosting {
    public mutating func handle(_ event: KVSAppEvent, values: KVSAppSnapshot, device: Int32,
                                notingReadsIn notes: inout [KVSAppPendingNote]) -> [KVSAppCommand] {
        let answer = handle(event, values: values)
        for read in answer.readList {
            notes.append(KVSAppPendingNote(device: device, note: KVSAppNote(key: read.key, write: read.write, madeHere: false)))
        }
        return answer.commands
    }
}

/// What a hosted KVS app is told.
public enum KVSAppEvent: Sendable {
    /// `didChangeExternally`: the notification's reason and keys.
    case changedExternally(reason: String, keys: [String])
    /// The user changed these keys through the app (a scenario's `kvs.*` op, already stored).
    case userChanged(keys: [String])
}

/// The store as a KVS app reads it while it is told of an event: read on demand, so telling an
/// app costs nothing per key it does not read.
public struct KVSAppSnapshot {
    /// The engine's local values (one reference: a copy of the whole engine per notification
    /// would retain every field of it).
    @usableFromInline let values: KVSEngine.LocalStore

    /// The store over the engine's local values (`KVSEngine.localValues`).
    public init(values: KVSEngine.LocalStore) { self.values = values }

    /// The local value of `key` and the write that made it, nil when absent.
    // Inlined into the app's store (another module) at every read: called, the lookup's answer
    // went back through memory as an optional tuple, copied and destroyed (about 60 instructions
    // a read, beside the lookup's 120); inlined, the value is read where it lies.
    @inlinable @inline(__always) public func value(forKey key: String) -> (value: PlistValue, write: WriteID?)? {
        guard let state = state(forKey: key), let value = state.value else { return nil }
        return (value, state.write)
    }

    /// The state of `key` (nil value: removed), nil when the store never held it: what the app's
    /// store reads its value and write from, where they lie (shared, never copied).
    @inlinable @inline(__always) package func state(forKey key: String) -> KVSKeyState? {
        values.appState(forKey: key)
    }

    /// The same, trying first the key applied `back` applications before the newest, and moving
    /// `back` one nearer when it is `key` (`KVSEngine.LocalStore.appState(forKey:back:)`): a read
    /// of a notification's keys in its order, each found where the fetch just applied it.
    @inlinable @inline(__always) package func state(forKey key: String, back: inout UInt32) -> KVSKeyState? {
        values.appState(forKey: key, back: &back)
    }

    /// Every key with a value, in UTF-8 order.
    public var keys: [String] {
        values.compactMap { $0.value.value == nil ? nil : $0.name }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

/// What a KVS app did when told of a change: its store calls in order, and the values it read
/// (key and the write behind it: what its own writes are built on).
public struct KVSAppAnswer: Sendable {
    public var commands: [KVSAppCommand]
    /// The reads as the platform notes them (see `KVSAppRead` for why not tuples).
    package var readList: [KVSAppRead]
    /// The values read, in order.
    public var reads: [(key: String, write: WriteID)] {
        get { readList.map { ($0.key, $0.write) } }
        set { readList = newValue.map { KVSAppRead(key: $0.key, write: $0.write) } }
    }
    public init(commands: [KVSAppCommand] = [], reads: [(key: String, write: WriteID)] = []) {
        self.commands = commands
        readList = reads.map { KVSAppRead(key: $0.key, write: $0.write) }
    }
    package init(commands: [KVSAppCommand], readList: [KVSAppRead]) { self.commands = commands; self.readList = readList }
}

/// One store call of a KVS app.
public enum KVSAppCommand: Sendable {
    /// `set(_:forKey:)`, or `removeObject(forKey:)` when `value` is nil.
    case set(key: String, value: PlistValue?)
    /// `synchronize()`.
    case synchronize
}

extension KVSAppCommand {
    /// The key a `set` names; nil for `synchronize`.
    public var key: String? {
        if case .set(let key, _) = self { return key }
        return nil
    }
}
