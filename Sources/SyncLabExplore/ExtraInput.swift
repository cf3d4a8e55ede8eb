/// The SPEC §5 steps and inputs that neither the traffic nor the fault kinds draw (session 16:
/// users' hand-written scenarios hold them, the generator did not, and bugs hide there).
///
/// A seed gets any of them only when its own `extras` sub-stream says so (40% of seeds), and
/// then each that applies to its profile with probability one half (at least one). A seed that
/// draws none generates byte-for-byte the scenario it generated before they existed, so the
/// seeds tests pin mostly keep their scenarios.
public enum ExtraInput: String, Sendable, CaseIterable {
    /// 1–4 `app.foreground` steps: the app launches or returns to the foreground (KVS
    /// synchronizes, the document and record engines fetch) while work may be in flight.
    case appForeground
    /// 1–3 `network.set` steps: one device's latency (up to 20 s one way, past the 30 s request
    /// timeout both ways), loss, bandwidth, push latency or push loss (every push dropped, too)
    /// changes mid-run; the heal restores the configured link.
    case networkSet
    /// 1–3 `clock.set` steps: a device's clock offset set outright (up to ±10 min, `+0ms` too),
    /// replacing the configured offset and any jump; clock settings stay through the heal.
    case clockSet
    /// 1–2 `cloud.clock.set` steps: the cloud's clock skewed up to ±10 min (record system dates).
    case cloudClockSet
    /// 1–3 `subscription.create` steps, public (70%) or private (a no-op for the record engine).
    case subscription
    /// 40% of `record.save` and `record.delete` steps go to the public database (`_defaultZone`;
    /// only a record's creator may change it, SPEC §4.3).
    case publicDatabase
    /// 40% of them go to the private `_defaultZone` (no change tracking: SPEC §4.3 says an app
    /// that syncs through it diverges, and the promise table says so too).
    case defaultZone
    /// Records of more than one type: one record name of the seed (others 30%) is a `Task`
    /// rather than a `Note`, in every step that saves it.
    case recordTypes
    /// 35% of KVS calls use a key of 64 bytes (allowed) or more than 64 bytes (refused with
    /// `invalidArgument`, SPEC §4.1), in ASCII and in letters of two and four bytes.
    case longKeys

    /// Whether the input means something in `profile`'s traffic.
    public func applies(to profile: FuzzProfile) -> Bool {
        switch self {
        case .appForeground, .networkSet, .clockSet, .cloudClockSet: return true
        case .subscription, .publicDatabase, .defaultZone, .recordTypes: return profile.uses(.records)
        case .longKeys: return profile.uses(.kvs)
        }
    }

    /// KVS keys at and past the 64-byte limit: 64 ASCII bytes, 65, 32 × `é` (64 bytes in 32
    /// characters), 33 × `é` (66 bytes in 33 characters: short in characters, long in bytes),
    /// 17 × `🔑` (68 bytes in 17 characters).
    static let longKeyNames = ["k" + String(repeating: "x", count: 63), "k" + String(repeating: "x", count: 64),
                           String(repeating: "é", count: 32), String(repeating: "é", count: 33), String(repeating: "🔑", count: 17)]
}
