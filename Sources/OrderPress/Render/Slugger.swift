/// File names for pages: readable, stable, unique, and unable to leave their folder.
public enum Slugger {
    static let maximumLength = 48
    /// Names some systems refuse as files, whatever the extension.
    static let reserved: Set<String> = Set(
        ["con", "prn", "aux", "nul", "index"] + (1...9).flatMap { ["com\($0)", "lpt\($0)"] })

    /// Assigns a slug to each distinct key. Keys are taken in sorted order, so the first key of a
    /// colliding set keeps the plain slug and the others get a suffix derived from their own text.
    public static func assign(_ keys: some Sequence<String>, fallback: String) -> [String: String] {
        var result: [String: String] = [:]
        var taken = Set<String>()
        for key in Set(keys).sorted() {
            let base = slug(key)
            var candidate = base.isEmpty ? "\(fallback)-\(hash(key, length: 6))" : base
            if reserved.contains(candidate) || taken.contains(candidate) {
                candidate = "\(base.isEmpty ? fallback : base)-\(hash(key, length: 6))"
            }
            var length = 8
            while taken.contains(candidate) {
                candidate = "\(base.isEmpty ? fallback : base)-\(hash(key, length: length))"
                length += 2
            }
            taken.insert(candidate)
            result[key] = candidate
        }
        return result
    }

    /// Lower-case letters and digits of any script, other runs folded into one hyphen.
    static func slug(_ name: String) -> String {
        var result = ""
        var pendingHyphen = false
        var count = 0
        for scalar in name.lowercased().precomposedStringWithCanonicalMapping.unicodeScalars {
            let keep = scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
                || scalar.properties.generalCategory == .nonspacingMark
            guard keep else {
                pendingHyphen = !result.isEmpty
                continue
            }
            if pendingHyphen {
                guard count + 1 < maximumLength else { break }
                result.unicodeScalars.append("-")
                count += 1
                pendingHyphen = false
            }
            guard count < maximumLength else { break }
            result.unicodeScalars.append(scalar)
            count += 1
        }
        return result
    }

    /// FNV-1a of the UTF-8 bytes, in lower-case hex: the same on every machine and run.
    static func hash(_ text: String, length: Int) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        let hex = String(value, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(length))
    }
}
