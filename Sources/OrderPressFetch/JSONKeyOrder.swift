import Foundation
import OrderPressSupport

/// The keys of the first row object of a SheetDB-shaped JSON body, in the order they are written: the
/// sheet's column order, which SheetDB keeps and every parsed table loses (a JSON object has no order,
/// and `SourceTable`'s headers are sorted). `orderpress restore` prints a deleted order as a row of the
/// sheet in this order, so that pasted into a Google Form's tab (whose columns follow its questions) each
/// value lands in its own column. Reads the first object only, and gives up (nil) on anything but a flat
/// object of strings, numbers, booleans and nulls.
enum JSONKeyOrder {
    /// The first object's keys, normalised as headers are (`Text.normalize`), each once; nil when unknown.
    static func of(_ data: Data) -> [String]? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [String]? in
            var index = 0
            let count = bytes.count
            func skipWhitespace() {
                while index < count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
            }
            func expect(_ byte: UInt8) -> Bool {
                skipWhitespace()
                guard index < count, bytes[index] == byte else { return false }
                index += 1
                return true
            }
            /// The end of the string starting at `index` (a quote), past its closing quote; nil when it never closes.
            func stringEnd() -> Int? {
                var at = index + 1
                while at < count {
                    switch bytes[at] {
                    case UInt8(ascii: "\\"): at += 2
                    case UInt8(ascii: "\""): return at + 1
                    default: at += 1
                    }
                }
                return nil
            }
            if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
            guard expect(UInt8(ascii: "[")), expect(UInt8(ascii: "{")) else { return nil }
            var keys: [String] = []
            var seen = Set<String>()
            skipWhitespace()
            if index < count, bytes[index] == UInt8(ascii: "}") { return nil }
            while true {
                skipWhitespace()
                guard index < count, bytes[index] == UInt8(ascii: "\""), let end = stringEnd() else { return nil }
                // The key's text as JSON says it (escapes and all), by JSONSerialization.
                let literal = Data(bytes[index..<end])
                guard let key = try? JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed) as? String else { return nil }
                index = end
                guard expect(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard index < count else { return nil }
                if bytes[index] == UInt8(ascii: "\"") {
                    guard let end = stringEnd() else { return nil }
                    index = end
                } else {
                    // A number, true, false or null: up to the next comma or the object's end.
                    while index < count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}") {
                        guard bytes[index] != UInt8(ascii: "{"), bytes[index] != UInt8(ascii: "["), bytes[index] != UInt8(ascii: "\"") else { return nil }
                        index += 1
                    }
                }
                let header = Text.normalize(key)
                if seen.insert(header).inserted { keys.append(header) }
                if expect(UInt8(ascii: ",")) { continue }
                return expect(UInt8(ascii: "}")) ? keys : nil
            }
        }
    }
}
