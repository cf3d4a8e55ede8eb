import SyncLabProtocol

/// The zone's last few fetch answers (`CloudRecordZone.changes(since:)`), kept while the zone
/// does not change: a record written reaches every device by a push, and each device's fetch
/// asks for the changes since the sequence it last saw, which is the same for most of them. A
/// kept answer is handed out again (its arrays shared, not built: no lookup of each changed
/// record's name, no copy of each record, no allocation), and every later copy of it, in the
/// response and the engine, releases a shared array instead of every record's strings and
/// fields (issue 13, session 11).
///
/// Derived state: dropped whenever a record or tombstone of the zone changes, never compared
/// (`==` holds for any two, so a zone's equality and hash are its records' alone) and never
/// shown. Which answers are kept depends only on the fetches asked, in order.
struct ZoneAnswers: Hashable, Sendable {
    /// One answer: the changes after `since`.
    struct Answer: Sendable {
        var since: UInt64
        var changed: [ServerRecord]
        var deleted: [(name: String, tombstone: CloudRecordZone.Tombstone)]
    }

    /// How many answers are kept: the sequences devices fetch from at one time are the last few
    /// changes' (a device fetches from the sequence its previous fetch brought it to).
    static let capacity = 4

    private var answers: [Answer] = []
    /// Where the next answer goes once `capacity` are kept (the oldest kept is replaced).
    private var next = 0
    /// Answers collected from the change log so far, kept or not: the work the cache saves is
    /// the fetches beyond this count (for tests; never shown).
    private(set) var collected = 0

    /// The kept answer of the changes after `since`, if there is one.
    func answer(since: UInt64) -> Answer? {
        for index in answers.indices where answers[index].since == since { return answers[index] }
        return nil
    }

    /// Keeps an answer, replacing the oldest when `capacity` are kept.
    mutating func keep(_ answer: Answer) {
        collected += 1
        if answers.count < ZoneAnswers.capacity {
            answers.append(answer)
        } else {
            answers[next] = answer
            next = (next + 1) % ZoneAnswers.capacity
        }
    }

    /// Drops every answer: the zone changed.
    mutating func removeAll() {
        guard !answers.isEmpty else { return }
        answers.removeAll(keepingCapacity: true)
        next = 0
    }

    /// Kept answers are never part of a zone's value.
    static func == (lhs: ZoneAnswers, rhs: ZoneAnswers) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
