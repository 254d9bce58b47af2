/// Lower-case hex of bytes (digests, salts), without `String(format:)`, which is slow enough to
/// show at a million rows.
public enum Hex {
    @inlinable
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        Array(bytes).withUnsafeBytes(lowercase)
    }

    /// The same for bytes in memory (a secret's digest, for every row), written straight into the string:
    /// no capacity checked for every digit.
    @usableFromInline
    package static func lowercase(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            write(bytes, to: text.baseAddress!)
            return bytes.count * 2
        }
    }

    /// The digits of `bytes` written at `out`, which has room for two a byte.
    package static func write(_ bytes: UnsafeRawBufferPointer, to out: UnsafeMutablePointer<UInt8>) {
        // Each digit worked out, not looked up: the table was a global's lazy check and a bounds check per digit.
        var out = out
        for byte in bytes {
            out[0] = digit(byte >> 4)
            out[1] = digit(byte & 0x0F)
            out += 2
        }
    }

    @inline(__always) private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
    }

    /// The value of a lowercase hex digit (the only kind this file writes); nil for any other byte.
    package static func value(ofDigit byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        default: nil
        }
    }

    /// The hex digits of `bytes` appended to `result`, without a String in between.
    package static func append(_ bytes: some Sequence<UInt8>, to result: inout [UInt8]) {
        for byte in bytes {
            result.append(digit(byte >> 4))
            result.append(digit(byte & 0x0F))
        }
    }
}
