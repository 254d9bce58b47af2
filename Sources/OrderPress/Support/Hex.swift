/// Lower-case hex of bytes (digests, salts), without `String(format:)`, which is slow enough to
/// show at a million rows.
enum Hex {
    static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        Array(bytes).withUnsafeBytes(lowercase)
    }

    /// The same for bytes in memory (a secret's digest, for every row), written straight into the string:
    /// no capacity checked for every digit.
    static func lowercase(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            for (index, byte) in bytes.enumerated() {
                text[2 * index] = digits[Int(byte >> 4)]
                text[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }

    /// The hex digits of `bytes` appended to `result`, without a String in between.
    static func append(_ bytes: some Sequence<UInt8>, to result: inout [UInt8]) {
        for byte in bytes {
            result.append(digits[Int(byte >> 4)])
            result.append(digits[Int(byte & 0x0F)])
        }
    }

    private static let digits = Array("0123456789abcdef".utf8)
}
