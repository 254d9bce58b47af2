/// Finds the first byte that is not well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
/// nothing above U+10FFFF), so that a parser can say in which row it is instead of failing somewhere.
enum UTF8Check {
    /// The length of the well-formed sequence starting at `offset`, or nil when it is not one.
    static func sequenceLength(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        let lead = bytes[offset]
        if lead < 0x80 { return 1 }
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard offset + length <= bytes.count, second.contains(bytes[offset + 1]) else { return nil }
        for index in (offset + 2)..<(offset + length) where !(0x80...0xBF).contains(bytes[index]) { return nil }
        return length
    }

    /// The offset of the first byte that is not well-formed UTF-8, or nil when all are.
    static func firstInvalidOffset(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var offset = 0
        while offset < bytes.count {
            if bytes[offset] < 0x80 {
                offset += 1
                continue
            }
            guard let length = sequenceLength(bytes, at: offset) else { return offset }
            offset += length
        }
        return nil
    }
}
