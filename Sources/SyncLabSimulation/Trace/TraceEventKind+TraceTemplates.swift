import SyncLabHistory
import SyncLabProtocol

extension TraceEventKind {
    /// `,"ev":"NAME","device":` — what a line `TraceRecorder.begin` writes holds between its
    /// time and its device's name, as one literal: one copy instead of three pieces and the
    /// name's own. Spelled out per case and exhaustive, so a new kind is a compile error here;
    /// a test checks every spelling against `rawValue`. Inlined: a line's event is a constant
    /// where `begin` is called, so the switch folds to the one literal (a call was 13
    /// instructions a line).
    @inline(__always) var eventAndDeviceKey: StaticString {
        switch self {
        case .run: return #","ev":"run","device":"#
        case .end: return #","ev":"end","device":"#
        case .launch: return #","ev":"launch","device":"#
        case .heal: return #","ev":"heal","device":"#
        case .op: return #","ev":"op","device":"#
        case .skipped: return #","ev":"skipped","device":"#
        case .assert: return #","ev":"assert","device":"#
        case .clock: return #","ev":"clock","device":"#
        case .cloudClock: return #","ev":"cloudClock","device":"#
        case .cloudExpireTokens: return #","ev":"cloudExpireTokens","device":"#
        case .cloudOutage: return #","ev":"cloudOutage","device":"#
        case .cloudThrottle: return #","ev":"cloudThrottle","device":"#
        case .offline: return #","ev":"offline","device":"#
        case .online: return #","ev":"online","device":"#
        case .crash: return #","ev":"crash","device":"#
        case .restart: return #","ev":"restart","device":"#
        case .send: return #","ev":"send","device":"#
        case .cloudReceive: return #","ev":"cloudReceive","device":"#
        case .respond: return #","ev":"respond","device":"#
        case .receive: return #","ev":"receive","device":"#
        case .dropped: return #","ev":"dropped","device":"#
        case .timeout: return #","ev":"timeout","device":"#
        case .push: return #","ev":"push","device":"#
        case .pushReceive: return #","ev":"pushReceive","device":"#
        case .timer: return #","ev":"timer","device":"#
        case .notify: return #","ev":"notify","device":"#
        case .log: return #","ev":"log","device":"#
        case .visible: return #","ev":"visible","device":"#
        case .derivedWrite: return #","ev":"derivedWrite","device":"#
        case .conflict: return #","ev":"conflict","device":"#
        case .conflictShown: return #","ev":"conflictShown","device":"#
        case .rejected: return #","ev":"rejected","device":"#
        case .lastWriterWins: return #","ev":"lastWriterWins","device":"#
        case .discarded: return #","ev":"discarded","device":"#
        case .note: return #","ev":"note","device":"#
        }
    }
}

extension Store {
    /// `","store":"NAME"` — what a line `TraceRecorder.begin` writes holds after its device's
    /// name (closing its quote), as one literal. A test checks it against `rawValue`.
    @inline(__always) var storeField: StaticString {
        switch self {
        case .kvs: return #"","store":"kvs""#
        case .documents: return #"","store":"documents""#
        case .records: return #"","store":"records""#
        }
    }
}

extension VisibilityCause {
    /// The raw value as a literal, so a `visible` line copies it (`add(_:identifier:)`) without
    /// making a `String` or checking it for escapes. A test checks it against `rawValue`.
    var traceLiteral: StaticString {
        switch self {
        case .local: return "local"
        case .fetch: return "fetch"
        case .rollback: return "rollback"
        case .resolution: return "resolution"
        case .reset: return "reset"
        }
    }
}

extension VisibilityCause {
    /// `,"cause":"NAME"}` and the newline: how a `visible` line ends, as one literal (the fast
    /// `visible` line copies it). A test checks it against `rawValue`.
    @inline(__always) var visibleLineEnd: StaticString {
        switch self {
        case .local: return ",\"cause\":\"local\"}\n"
        case .fetch: return ",\"cause\":\"fetch\"}\n"
        case .rollback: return ",\"cause\":\"rollback\"}\n"
        case .resolution: return ",\"cause\":\"resolution\"}\n"
        case .reset: return ",\"cause\":\"reset\"}\n"
        }
    }
}
