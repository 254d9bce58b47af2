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
    package static let units: Set<Character> = ["年", "月", "日", "時", "时", "分", "秒", "년", "월", "일", "시", "분", "초"]

    /// The fields of a timestamp with words, on a 24-hour clock; nil when a word is unknown, a marker is
    /// repeated or stands without a time, or the hour is not one of a 12-hour clock (0–12).
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp.Fields? {
        switch readBytes(bytes) {
        case .read(let fields): fields
        case .needsText: parseText(bytes)
        }
    }

    /// What the byte path made of a timestamp: the answer, or a character it leaves to `parseText`.
    enum ByteRead {
        case read(Timestamp.Fields?)
        case needsText
    }

    /// The byte path, for what a Form's response tab holds on every row (`2026/11/21 下午 3:15:00`,
    /// `11/21/2026 3:15:00 PM`): printable ASCII, the markers and the units. NFKC leaves such text as it
    /// is and each of its characters is one Unicode scalar, so reading bytes gives what `parseText` gives
    /// (`TimestampWordsTests` compares the two on generated text); any other byte — a full-width digit,
    /// a control character, a word of another script — goes to `parseText`. Reading every row's time as a
    /// String, normalised and walked by Character, was a third of a 100,000-row Form sheet's rerun.
    static func readBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> ByteRead {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { plain in
            var count = 0
            var meridiem: Meridiem?
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 {
                    // Every marker is two characters of three bytes, every unit one (CJK and Hangul).
                    guard index + 3 <= bytes.count else { return .needsText }
                    let first = character(bytes, at: index)
                    if index + 6 <= bytes.count, let found = markerCharacters.first(where: { $0.first == first && $0.second == character(bytes, at: index + 3) }) {
                        guard meridiem == nil else { return .read(nil) }
                        meridiem = found.meridiem
                        index += 6
                    } else if unitCharacters.contains(first) {
                        index += 3
                    } else {
                        return .needsText
                    }
                    plain[count] = UInt8(ascii: " ")
                    count += 1
                    continue
                }
                guard byte >= 0x20, byte != 0x7F else { return .needsText }
                let folded = byte | 0x20
                guard folded >= UInt8(ascii: "a"), folded <= UInt8(ascii: "z") else {
                    plain[count] = byte
                    count += 1
                    index += 1
                    continue
                }
                // A word: ASCII letters, and the points of `a.m.`.
                var end = index
                while end < bytes.count, bytes[end] == UInt8(ascii: ".") || ((bytes[end] | 0x20) >= UInt8(ascii: "a") && (bytes[end] | 0x20) <= UInt8(ascii: "z")) {
                    end += 1
                }
                switch latinWord(UnsafeBufferPointer(rebasing: bytes[index..<end]), atEnd: end == bytes.count) {
                case .marker(let found):
                    guard meridiem == nil else { return .read(nil) }
                    meridiem = found
                    plain[count] = UInt8(ascii: " ")
                case .separator:
                    plain[count] = UInt8(ascii: " ")
                case .zone:
                    plain[count] = UInt8(ascii: "Z")
                case .unknown:
                    return .read(nil)
                }
                count += 1
                index = end
            }
            return .read(fields(UnsafeBufferPointer(rebasing: plain[0..<count]), meridiem: meridiem))
        }
    }

    /// The three bytes of a character at `index` as one number, to compare with `markerCharacters`' and `unitCharacters`'.
    private static func character(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
    }

    private static func character(_ text: String) -> UInt32 {
        let bytes = Array(text.utf8)
        precondition(bytes.count == 3, "a marker's or unit's character is three bytes of UTF-8")
        return UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
    }

    private static let markerCharacters: [(first: UInt32, second: UInt32, meridiem: Meridiem)] = markers.map { marker in
        (character(String(marker.text.prefix(1))), character(String(marker.text.dropFirst())), marker.meridiem)
    }
    private static let unitCharacters: [UInt32] = units.map { character(String($0)) }

    /// What a word of ASCII letters (and points) is.
    private enum LatinWord {
        case marker(Meridiem)
        /// The `T` between an ISO date and its time.
        case separator
        /// A closing `Z`.
        case zone
        case unknown
    }

    private static func latinWord(_ word: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> LatinWord {
        let folded = String(decoding: word, as: UTF8.self).lowercased()
        if let found = latinMarkers[folded] ?? (folded.hasSuffix(".") ? latinMarkers[String(folded.dropLast())] : nil) { return .marker(found) }
        if folded == "t" { return .separator }
        if folded == "z", atEnd { return .zone }
        return .unknown
    }

    /// The fields of `plain`, the timestamp with its words made separators, on a 24-hour clock.
    private static func fields(_ plain: UnsafeBufferPointer<UInt8>, meridiem: Meridiem?) -> Timestamp.Fields? {
        guard case .fields(var fields) = Timestamp.scan(plain) else { return nil }
        guard let meridiem else { return fields }
        // 12 AM is midnight and 12 PM noon; 0 (as some ja formats write 午前0:15) means the same as 12.
        guard fields.hasTime, (0...12).contains(fields.hour) else { return nil }
        fields.hour = fields.hour % 12 + (meridiem == .pm ? 12 : 0)
        return fields
    }

    /// The text path: any timestamp, read as NFKC text character by character (full-width digits and
    /// colons become ASCII).
    static func parseText(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp.Fields? {
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
            switch Array(word.utf8).withUnsafeBufferPointer({ latinWord($0, atEnd: end == text.endIndex) }) {
            case .marker(let found):
                guard meridiem == nil else { return nil }
                meridiem = found
                plain.append(UInt8(ascii: " "))
            case .separator: plain.append(UInt8(ascii: " "))
            case .zone: plain.append(UInt8(ascii: "Z"))
            case .unknown: return nil
            }
            index = end
        }
        return plain.withUnsafeBufferPointer { fields($0, meridiem: meridiem) }
    }
}
