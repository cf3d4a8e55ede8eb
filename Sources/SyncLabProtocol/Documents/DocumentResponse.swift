/// A response of the Documents service.
public enum DocumentResponse: Hashable, Sendable {
    /// Documents changed since the fetch's cursor, sorted by path, and the cursor to fetch from next.
    case changes(states: [DocumentState], cursor: UInt64)
    // The two cases carrying a state are boxed: inline, a state made every response, engine
    // event and cloud action of every service ~140 bytes wide, copied on each hop.
    /// The outcome of an upload and the document's state after it.
    indirect case uploaded(version: WriteID, outcome: DocumentUploadOutcome, state: DocumentState?)
    /// The outcome of a resolve or replace request (`applied == false`: a repeat, or a replacement
    /// the cloud could no longer make, ignored) and the state after it.
    indirect case resolved(path: String, applied: Bool, state: DocumentState?)

    /// Bytes on the wire that count toward transfer time: downloaded content. An upload reply
    /// does not send back the content the uploader just sent.
    public var transferBytes: Int64 {
        switch self {
        case .changes(let states, _):
            return states.reduce(0) { ByteCount.sum($0, $1.transferBytes) }
        case .uploaded(let version, _, let state):
            guard let state else { return 0 }
            return state.transferBytes(withCurrent: state.current.id != version)
        case .resolved(_, _, let state):
            guard let state else { return 0 }
            return state.transferBytes(withCurrent: false)
        }
    }
}
