import Foundation

/// The slow path of `Timestamp`: a timestamp with words in it, as Google Sheets formats a Form's time in
/// the spreadsheet's locale — a 12-hour marker (`2026/11/21 下午 3:15:00`, `2026/11/21 午後3:15:00`,
/// `11/21/2026 3:15:00 PM`, `2026. 11. 21 오후 3:15:00`, `p.m.`), date and time units (`2026年11月21日`,
/// `3時15分`), full-width digits and colons (NFKC). Every word must be one of these: any other word
/// (`Sat`, `Nov`, `noon`, `晚上`) makes the text unreadable — a warning, and the text shown as it was —
/// because skipping it could show a time that is not the one written.
enum TimestampWords {
    enum Meridiem {
        case am, pm
    }

    /// The markers Google Sheets writes for the 12-hour clock in zh, ja, ko and en. Latin ones are
    /// compared case-insensitively and only as whole words.
    static let markers: [(text: String, meridiem: Meridiem)] = [
        ("上午", .am), ("下午", .pm), ("午前", .am), ("午後", .pm), ("오전", .am), ("오후", .pm),
    ]
    static let latinMarkers: [String: Meridiem] = ["am": .am, "pm": .pm, "a.m.": .am, "p.m.": .pm, "a.m": .am, "p.m": .pm]

    /// Units written between a date's or a time's numbers (zh, ja, ko): read as separators.
    static let units: Set<Character> = ["年", "月", "日", "時", "时", "分", "秒", "년", "월", "일", "시", "분", "초"]

    /// The fields of a timestamp with words, on a 24-hour clock; nil when a word is unknown, a marker is
    /// repeated or stands without a time, or the hour is not one of a 12-hour clock (0–12).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp.Fields? {
        let text = String(decoding: bytes, as: UTF8.self).precomposedStringWithCompatibilityMapping
        var plain: [UInt8] = []
        plain.reserveCapacity(text.utf8.count)
        var meridiem: Meridiem?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let marker = markers.first(where: { text[index...].hasPrefix($0.text) }) {
                guard meridiem == nil else { return nil }
                meridiem = marker.meridiem
                plain.append(UInt8(ascii: " "))
                index = text.index(index, offsetBy: marker.text.count)
                continue
            }
            if units.contains(character) {
                plain.append(UInt8(ascii: " "))
                index = text.index(after: index)
                continue
            }
            guard let ascii = character.asciiValue else { return nil }
            guard character.isLetter else {
                plain.append(ascii)
                index = text.index(after: index)
                continue
            }
            // A word: letters, and the points of `a.m.`.
            let word = text[index...].prefix { $0.isASCII && ($0.isLetter || $0 == ".") }
            let end = text.index(index, offsetBy: word.count)
            let folded = word.lowercased()
            let atEnd = end == text.endIndex
            if let found = latinMarkers[folded] ?? (folded.hasSuffix(".") ? latinMarkers[String(folded.dropLast())] : nil) {
                guard meridiem == nil else { return nil }
                meridiem = found
                plain.append(UInt8(ascii: " "))
            } else if folded == "t" {
                plain.append(UInt8(ascii: " "))  // the T between an ISO date and its time
            } else if folded == "z", atEnd {
                plain.append(UInt8(ascii: "Z"))
            } else {
                return nil
            }
            index = end
        }
        let scanned = plain.withUnsafeBufferPointer { Timestamp.scan($0) }
        guard case .fields(var fields) = scanned else { return nil }
        guard let meridiem else { return fields }
        // 12 AM is midnight and 12 PM noon; 0 (as some ja formats write 午前0:15) means the same as 12.
        guard fields.hasTime, (0...12).contains(fields.hour) else { return nil }
        fields.hour = fields.hour % 12 + (meridiem == .pm ? 12 : 0)
        return fields
    }
}
