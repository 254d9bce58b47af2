/// Lower-case hex of bytes (digests, salts), without `String(format:)`, which is slow enough to
/// show at a million rows.
enum Hex {
    static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.underestimatedCount * 2)
        append(bytes, to: &result)
        return String(decoding: result, as: UTF8.self)
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
