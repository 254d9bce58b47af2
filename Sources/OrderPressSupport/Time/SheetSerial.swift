import Foundation

/// A Google Sheets date serial, as `mode=UNFORMATTED_VALUE` gives every date and time: days since
/// 1899-12-30 (the Lotus and Excel convention), the fraction being the time of day, on the wall clock of
/// the spreadsheet's zone (no offset is stored). `46347.5` is 2026-11-21 12:00. Read from its digits,
/// never through `Double`: a JSON number arrives as its exact decimal text (`JSONNumberText`).
package enum SheetSerial {
    /// 1899-12-30 is this many days before 1970-01-01.
    static let epochDays = 25_569
    /// The serials read: 1970-01-01 to 9999-12-31. A smaller number in a time or deadline cell (`18`
    /// for six o'clock, a price typed in the wrong column) is no order's date: it stays unreadable, a
    /// warning, rather than becoming a day in 1900.
    static let days = epochDays...2_958_465
    /// Fraction digits read: a trillionth of a day is far below a second.
    private static let fractionDigits = 12

    /// The wall-clock time (seconds since 1970 as if the zone were UTC) of a serial written as digits with
    /// at most one point (`46347`, `46347.385416666664`), rounded to the nearest second; nil for any other
    /// text, and for a day outside `days`.
    static func wallClock(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var days = 0
        var integerDigits = 0
        var numerator = 0
        var fraction = 0
        var afterPoint = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int(byte - UInt8(ascii: "0"))
                if afterPoint {
                    guard fraction < fractionDigits else { continue }
                    numerator = numerator * 10 + digit
                    fraction += 1
                } else {
                    guard integerDigits < 8 else { return nil }
                    days = days * 10 + digit
                    integerDigits += 1
                }
            case UInt8(ascii: "."):
                guard !afterPoint else { return nil }
                afterPoint = true
            default:
                return nil
            }
        }
        guard integerDigits > 0, !(afterPoint && fraction == 0), Self.days.contains(days) else { return nil }
        var scale = 1
        for _ in 0..<fraction { scale *= 10 }
        // numerator < 10^12, so numerator × 86,400 stays far below Int.max.
        let seconds = (numerator * 86_400 * 2 + scale) / (scale * 2)
        return (days - epochDays) * 86_400 + seconds
    }

    /// A serial as pages show times (`2026-11-21 15:15`, the sheet's wall clock), or nil when `text` is not
    /// one: what a rejected row or a restored one shows of its time cell instead of `46353.635416666664`.
    package static func shown(_ text: String) -> String? {
        guard text.utf8.count > 4, let local = Text.withUTF8(text, { wallClock($0) }) else { return nil }
        return Timestamp.display(Date(timeIntervalSince1970: TimeInterval(local)), timeZone: TimeZone(identifier: "UTC")!)
    }
}
