import Foundation

/// A JSON number in a sheet (`mode=UNFORMATTED_VALUE`, `cast_numbers`) as the exact decimal it writes:
/// `46347.38541666667` stays those digits, `12345678901.123456` is not rounded, `1.5e3` is `1500`.
/// JSONSerialization reads every number into an `NSNumber` through `Double` (17 significant digits at
/// best), and a cell is text anyway: so numbers are read from their own bytes, here, on both JSON paths
/// (`SheetJSONScanner`, and `quotingNumbers` before JSONSerialization).
enum JSONNumberText {
    /// Exponents beyond this are left to JSONSerialization as they always were (a cell of a hundred
    /// zeros is no sheet's value, and `1E400` overflows a Double).
    static let maxExponent = 40

    /// The plain decimal text of a JSON number token (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`):
    /// no exponent, no trailing zeros after the point, no point without a fraction, `0` for any zero.
    /// Nil when the token is not a JSON number, or its exponent is beyond `maxExponent`.
    static func canonical(_ token: UnsafeRawBufferPointer) -> String? {
        var index = 0
        let count = token.count
        func isDigit(_ at: Int) -> Bool { at < count && token[at] >= UInt8(ascii: "0") && token[at] <= UInt8(ascii: "9") }
        let negative = index < count && token[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard isDigit(index) else { return nil }
        var digits: [UInt8] = []  // every significant digit, integer then fraction
        if token[index] == UInt8(ascii: "0") {
            index += 1
            guard !isDigit(index) else { return nil }  // no leading zeros
        } else {
            while isDigit(index) {
                digits.append(token[index])
                index += 1
            }
        }
        var point = digits.count  // where the decimal point falls among `digits`
        if index < count, token[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return nil }
            while isDigit(index) {
                digits.append(token[index])
                index += 1
            }
        }
        if index < count, token[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentSign = 1
            if index < count, token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-") {
                if token[index] == UInt8(ascii: "-") { exponentSign = -1 }
                index += 1
            }
            guard isDigit(index) else { return nil }
            var exponent = 0
            while isDigit(index) {
                exponent = min(exponent * 10 + Int(token[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            guard exponent <= maxExponent else { return nil }
            point += exponentSign * exponent
        }
        guard index == count else { return nil }
        // The digits' value is 0.d1d2… × 10^point once leading zeros go: drop them, and trailing ones after the point.
        let firstNonZero = digits.firstIndex { $0 != UInt8(ascii: "0") }
        guard let firstNonZero else { return "0" }
        var significant = Array(digits[firstNonZero...])
        point -= firstNonZero
        while let last = significant.last, last == UInt8(ascii: "0"), significant.count > point { significant.removeLast() }
        var text: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        if point <= 0 {
            text += Array("0.".utf8) + [UInt8](repeating: UInt8(ascii: "0"), count: -point) + significant
        } else if point >= significant.count {
            text += significant + [UInt8](repeating: UInt8(ascii: "0"), count: point - significant.count)
        } else {
            text += significant[..<point] + [UInt8(ascii: ".")] + significant[point...]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `data` with every number that is a value in an object or an array (after `:`, `[` or `,`, before
    /// `,`, `}` or `]`) written as a string of its `canonical` text, so that JSONSerialization hands the
    /// digits over instead of a Double. Anything that is not such a number is left exactly as it is, so a
    /// body JSONSerialization refuses is still refused; `data` itself when it holds no number.
    static func quotingNumbers(_ data: Data) -> Data {
        data.withUnsafeBytes { bytes -> Data in
            var output: [UInt8]? = nil
            var copied = 0  // bytes of `bytes` already in `output`
            var index = 0
            var inString = false
            var previous: UInt8 = 0  // the last byte outside strings that is not whitespace
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
            while index < bytes.count {
                let byte = bytes[index]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        index += 2
                        continue
                    }
                    if byte == UInt8(ascii: "\"") { inString = false; previous = byte }
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    inString = true
                    index += 1
                    continue
                }
                let startsNumber = byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                guard startsNumber, previous == UInt8(ascii: ":") || previous == UInt8(ascii: "[") || previous == UInt8(ascii: ",") else {
                    if !isSpace(byte) { previous = byte }
                    index += 1
                    continue
                }
                var end = index
                while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
                var after = end
                while after < bytes.count, isSpace(bytes[after]) { after += 1 }
                let closes = after < bytes.count && [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[after])
                if closes, let text = canonical(UnsafeRawBufferPointer(rebasing: bytes[index..<end])) {
                    if output == nil { output = []; output!.reserveCapacity(bytes.count + 256) }
                    output!.append(contentsOf: bytes[copied..<index])
                    output!.append(UInt8(ascii: "\""))
                    output!.append(contentsOf: text.utf8)
                    output!.append(UInt8(ascii: "\""))
                    copied = end
                }
                previous = bytes[end - 1]
                index = end
            }
            guard var output else { return data }
            output.append(contentsOf: bytes[copied...])
            return Data(output)
        }
    }

    static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return true
        default: return false
        }
    }
}
