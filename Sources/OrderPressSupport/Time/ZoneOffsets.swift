import Foundation

/// `TimeZone.secondsFromGMT(for:)` remembered by the hour, for one thread reading a sheet's times: every
/// order has one, each asked the zone twice, and each answer went through ICU behind the zone's lock
/// (costly, and the two cores waiting on each other), for a sheet whose times fall in a
/// few hours. An hour is remembered only when the zone reports no transition inside it and gives the same
/// offset at both its ends, so the answer is always the zone's own; any other hour (one with a
/// transition at a half hour, or beyond the years where the zone's rules are tabled) is asked every time.
package struct ZoneOffsets {
    package let timeZone: TimeZone
    /// A few recent hours, by hour number modulo their count: the hour and its offset.
    private var hours = [Int](repeating: .min, count: Self.slots)
    private var offsets = [Int](repeating: 0, count: Self.slots)

    private static let slots = 64
    /// 1900-01-01 and 2200-01-01 UTC: the hours remembered lie between (the zone's transitions are
    /// reported up to a limit, and a sheet's times are in these years anyway).
    private static let remembered = -2_208_988_800..<7_258_118_400

    package init(_ timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The zone's offset from UTC at `seconds` since 1970, as `timeZone.secondsFromGMT(for:)` gives it.
    package mutating func secondsFromGMT(at seconds: Int) -> Int {
        guard Self.remembered.contains(seconds) else { return timeZone.secondsFromGMT(for: Self.date(seconds)) }
        let hour = seconds >= 0 ? seconds / 3600 : (seconds - 3599) / 3600
        let slot = hour & (Self.slots - 1)
        if hours[slot] == hour { return offsets[slot] }
        guard let offset = steadyOffset(hour: hour) else { return timeZone.secondsFromGMT(for: Self.date(seconds)) }
        hours[slot] = hour
        offsets[slot] = offset
        return offset
    }

    /// The offset throughout `hour`, or nil when it may change within it.
    private func steadyOffset(hour: Int) -> Int? {
        let start = hour * 3600
        let offset = timeZone.secondsFromGMT(for: Self.date(start))
        guard timeZone.secondsFromGMT(for: Self.date(start + 3599)) == offset else { return nil }
        if let next = timeZone.nextDaylightSavingTimeTransition(after: Self.date(start)), next.timeIntervalSince1970 < Double(start + 3600) {
            return nil
        }
        return offset
    }

    private static func date(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}
