import Foundation
import OrderPressOutput
import OrderPressSupport

/// Reads `published.json` as `Manifest.encoded` writes it, byte by byte: JSONDecoder took about a
/// second for the 240,000 entries of a million-order site, before anything was rendered. Deliberately
/// narrow, like `SheetJSONScanner`: any byte out of that exact shape (an edit by hand, another
/// version's file) gives nil, and `Manifest.decode` then reads the file with JSONDecoder as ever.
struct ManifestReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    static func read(_ data: Data) -> Manifest? {
        data.withUnsafeBytes { raw in
            var reader = ManifestReader(bytes: raw)
            return reader.manifest()
        }
    }

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private mutating func manifest() -> Manifest? {
        guard take("{\"version\": \(Manifest.version),\n") else { return nil }
        var inputs: String?
        if take("\"inputs\": ") {
            guard let text = string(), take(",\n") else { return nil }
            inputs = text
        }
        guard let markdown = list("markdown", last: false), let site = list("site", last: true), offset == bytes.count else { return nil }
        return Manifest(markdown: markdown, site: site, inputs: inputs)
    }

    private mutating func list(_ name: String, last: Bool) -> [Manifest.Entry]? {
        guard take("\"\(name)\": [") else { return nil }
        var entries: [Manifest.Entry] = []
        while take(entries.isEmpty ? "\n{\"path\": " : ",\n{\"path\": ") {
            guard let entry = entry() else { return nil }
            entries.append(entry)
        }
        return take(last ? "\n]\n}\n" : "\n],\n") ? entries : nil
    }

    /// The rest of an entry, after `{"path": `.
    private mutating func entry() -> Manifest.Entry? {
        guard let path = string(), take(", \"size\": "), let size = integer(), take(", \"modified\": "), let modified = integer(),
            take(", \"sha256\": "), let sha256 = digest()
        else { return nil }
        var key: String?
        if take(", \"key\": ") {
            guard let text = string() else { return nil }
            key = text
        }
        var pieces: FilePieces?
        if take(", \"pieces\": ") {
            guard let text = string(), let packed = Data(base64Encoded: text), let list = FilePieces(packed: packed) else { return nil }
            pieces = list
        }
        guard take("}") else { return nil }
        return Manifest.Entry(path: path, size: size, modified: modified, sha256: sha256, reuseKey: key, pieces: pieces)
    }

    private mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count, memcmp(bytes.baseAddress! + offset, literal.utf8Start, count) == 0 else { return false }
        offset += count
        return true
    }

    private mutating func take(_ literal: String) -> Bool {
        var literal = literal
        return literal.withUTF8 { utf8 in
            guard offset + utf8.count <= bytes.count, memcmp(bytes.baseAddress! + offset, utf8.baseAddress!, utf8.count) == 0 else { return false }
            offset += utf8.count
            return true
        }
    }

    /// An optional minus and digits, as the encoder writes an Int64; nil past Int64's range.
    private mutating func integer() -> Int64? {
        let negative = offset < bytes.count && bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        var value: Int64 = 0
        var digits = 0
        while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = shifted.addingReportingOverflow(Int64(bytes[offset] - UInt8(ascii: "0")))
            guard !overflow, !overflowAgain else { return nil }
            value = sum
            offset += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }

    /// A SHA-256 as 64 lowercase hex digits in quotes, read from the bytes: no String made for it.
    private mutating func digest() -> ContentDigest? {
        let length = ContentDigest.hexLength
        guard offset + length + 2 <= bytes.count, bytes[offset] == UInt8(ascii: "\""), bytes[offset + length + 1] == UInt8(ascii: "\""),
            let digest = ContentDigest(hexDigits: UnsafeRawBufferPointer(rebasing: bytes[(offset + 1)..<(offset + 1 + length)]))
        else { return nil }
        offset += length + 2
        return digest
    }

    /// A string with only the escapes `JSONEscaper.append` writes; valid UTF-8 only. One without
    /// escapes (nearly every path and key) is made straight from its bytes; only one with escapes is
    /// gathered a byte at a time, which for every string was a visible share of a rerun
    /// (docs/benchmarks.md).
    private mutating func string() -> String? {
        guard take("\"") else { return nil }
        var end = offset
        var ascii = true
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                let plain = UnsafeBufferPointer(start: (bytes.baseAddress! + offset).assumingMemoryBound(to: UInt8.self), count: end - offset)
                offset = end + 1
                // ASCII (every key, most paths) is valid UTF-8 as it is: no validating pass.
                return ascii ? String(decoding: plain, as: UTF8.self) : String(validating: plain, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            ascii = ascii && byte < 0x80
            end += 1
        }
        return escapedString()
    }

    /// The rest of a string with escapes, from `offset`, a byte at a time.
    private mutating func escapedString() -> String? {
        var text: [UInt8] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard offset < bytes.count else { return nil }
                let letter = bytes[offset]
                offset += 1
                switch letter {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): text.append(letter)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    // Only a control character, `\u00XX`, is written this way.
                    guard take("00"), offset + 2 <= bytes.count, let high = Hex.value(ofDigit: bytes[offset]), let low = Hex.value(ofDigit: bytes[offset + 1]),
                        high < 2
                    else { return nil }
                    offset += 2
                    text.append(high << 4 | low)
                default: return nil
                }
            case 0..<0x20: return nil
            default: text.append(byte)
            }
        }
        return nil
    }
}
