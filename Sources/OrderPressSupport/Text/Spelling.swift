/// "Did you mean …?" for a mistyped word: the closest candidate by edit distance, if it is close.
public enum Spelling {
    /// The candidate nearest to `word`, when at most a third of its letters (at least one) differ.
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        let scored = candidates.map { (candidate: $0, distance: distance(typed, Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        return best.distance <= max(1, typed.count / 3) ? best.candidate : nil
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbours ("biuld" is one swap from "build") each cost one.
    package static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
