import Testing
import SyncLabProtocol

/// `{"$date": …}` takes only dates the calendar has: a day past its month's end, a leap second
/// and an offset past 23:59 used to be accepted and silently moved (2026-02-30 was stored as
/// 2026-03-02, 12:00:60 as 12:01:00, +25:00 a day back).
@Suite("ISO 8601 dates")
struct ISODateTests {
    @Test("dates the calendar does not have are refused", arguments: [
        "2026-02-30T12:00:00Z", "2026-02-29", "2100-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-06-31",
        "2026-01-31T12:00:60Z", "2026-01-31T12:00:00+25:00", "2026-01-31T12:00:00+00:99", "2026-01-31T12:00:00-24:00",
    ])
    func impossibleDatesAreRefused(text: String) {
        #expect(ISODate.parse(text) == nil)
    }

    @Test("the last day of each month, leap days and real offsets still read", arguments: [
        ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"), ("2000-02-29", "2000-02-29T00:00:00Z"),
        ("2026-04-30T23:59:59Z", "2026-04-30T23:59:59Z"), ("2026-12-31T23:59:59.5Z", "2026-12-31T23:59:59.5Z"),
        ("2026-01-31T13:00:00+01:00", "2026-01-31T12:00:00Z"), ("2026-01-01T09:45:00+23:59", "2025-12-31T09:46:00Z"),
    ])
    func possibleDatesRead(text: String, formatted: String) {
        #expect(ISODate.parse(text).map { ISODate.format(epochMicroseconds: $0) } == formatted)
    }
}
