/// ISO 8601 dates ↔ microseconds since 1970, written by hand: `ISO8601DateFormatter` keeps only
/// milliseconds and its output is not guaranteed across platforms (SPEC §2).
public enum ISODate {
    /// Parses `2026-01-31T12:00:00Z`, `2026-01-31T12:00:00.25+02:00`, or a bare date `2026-01-31`.
    /// - Returns: microseconds since the epoch, or nil if the text is not such a date.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int64? {
            guard index + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48); index += 1
            }
            return value
        }
        func expect(_ char: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == char else { return false }
            index += 1; return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var seconds: Int64 = 0, micros: Int64 = 0, offset: Int64 = 0
        if index < bytes.count {
            guard expect(84) || expect(116) || expect(32), let hour = number(2), expect(58), let minute = number(2),
                  hour < 24, minute < 60 else { return nil }
            seconds = hour * 3600 + minute * 60
            if expect(58) {
                // No leap second: 60 would silently become the next minute (as 2026-02-30
                // became March 2), so a date the calendar does not have is refused.
                guard let second = number(2), second < 60 else { return nil }
                seconds += second
                if expect(46) {
                    var scale: Int64 = 100_000, digits = 0
                    while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                        micros += Int64(bytes[index] - 48) * scale; scale /= 10; index += 1; digits += 1
                    }
                    guard digits > 0 else { return nil }
                }
            }
            if expect(90) || expect(122) {
            } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
                let sign: Int64 = bytes[index] == 45 ? -1 : 1
                index += 1
                guard let oh = number(2) else { return nil }
                _ = expect(58)
                guard let om = number(2), oh < 24, om < 60 else { return nil }
                offset = sign * (oh * 3600 + om * 60)
            } else {
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return ((days * 86_400 + seconds - offset) * 1_000_000) + micros
    }

    /// Formats as `2026-01-31T12:00:00Z`, with a fraction only when it is not whole seconds.
    public static func format(epochMicroseconds: Int64) -> String {
        let micros = ((epochMicroseconds % 1_000_000) + 1_000_000) % 1_000_000
        let totalSeconds = (epochMicroseconds - micros) / 1_000_000
        let secondOfDay = ((totalSeconds % 86_400) + 86_400) % 86_400
        let days = (totalSeconds - secondOfDay) / 86_400
        let (year, month, day) = civilFromDays(days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value); return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var result = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if micros != 0 {
            var fraction = pad(micros, 6)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            result += "." + fraction
        }
        return result + "Z"
    }

    /// Days in `month` of `year` (proleptic Gregorian: a leap year divides by 4, not by 100
    /// unless by 400).
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days-from-civil algorithms.
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
