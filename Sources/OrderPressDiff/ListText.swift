import OrderPressSupport

/// A list of strings as one SQLite text value, for the snapshot's per-row lists (values, secret hashes,
/// options). Not JSON: that would be three decoder runs per row on every load, where this is one split.
///
/// Each element is preceded by the byte 0x1F; inside elements, a backslash is written `\\` and 0x1F `\u`. So `[]` is
/// "" and `[""]` is "\u{1F}", and any text survives, control characters included.
enum ListText {
    /// Bytes, not Characters: a combining mark after a backslash must not hide it from the escaping.
    private static let separator: UInt8 = 0x1F
    private static let backslash = UInt8(ascii: "\\")

    static func encode(_ list: [String]) -> String {
        var bytes: [UInt8] = []
        append(list, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `encode(list)`'s bytes, appended to `result`: valid UTF-8, which a save binds with no String between.
    static func append(_ list: [String], to result: inout [UInt8]) {
        for element in list {
            Text.withUTF8(element) { bytes in append(element: bytes, to: &result) }
        }
    }

    private static func append(element bytes: UnsafeBufferPointer<UInt8>, to result: inout [UInt8]) {
        result.append(separator)
        // Most elements need no escaping: their bytes go in at once (a save writes a million rows).
        guard bytes.contains(where: { $0 == backslash || $0 == separator }) else { return result.append(contentsOf: bytes) }
        for byte in bytes {
            switch byte {
            case backslash: result.append(contentsOf: [backslash, backslash])
            case separator: result.append(contentsOf: [backslash, UInt8(ascii: "u")])
            default: result.append(byte)
            }
        }
    }

    /// Secret hashes as the list of their texts (`SecretHash.text`).
    static func append(_ secrets: [SecretHash], to result: inout [UInt8]) {
        for secret in secrets {
            secret.withUTF8 { bytes in append(element: bytes, to: &result) }
        }
    }

    /// Nil when `text` was not written by `encode`.
    static func decode(_ text: String) -> [String]? {
        let bytes = text.utf8
        guard let first = bytes.first else { return [] }
        guard first == separator else { return nil }
        var result: [String] = []
        for part in bytes.dropFirst().split(separator: separator, omittingEmptySubsequences: false) {
            guard part.contains(backslash) else {
                result.append(String(decoding: part, as: UTF8.self))
                continue
            }
            var element: [UInt8] = []
            var escaped = false
            for byte in part {
                if escaped {
                    switch byte {
                    case backslash: element.append(backslash)
                    case UInt8(ascii: "u"): element.append(separator)
                    default: return nil
                    }
                    escaped = false
                } else if byte == backslash {
                    escaped = true
                } else {
                    element.append(byte)
                }
            }
            if escaped { return nil }
            result.append(String(decoding: element, as: UTF8.self))
        }
        return result
    }
}
