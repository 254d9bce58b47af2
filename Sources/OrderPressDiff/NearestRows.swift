import HeapModule

/// Pairs the rows of two lists nearest first: of all the pairs left, the one whose sheet rows are
/// closest (ties: the lower old row, then the lower new row) pairs first, until one list is used up.
/// Each list's rows are distinct (a sheet row holds one order).
///
/// The closest pair left is always two neighbours of different lists in row order (anything between
/// them would be closer to one of them), so only neighbours are candidates: a heap of them, and a
/// linked list of what is left, whose two new neighbours become a candidate when a pair is taken.
/// O(n log n) for one person's many same orders, where trying every pair would be O(n³).
enum NearestRows {
    /// Pairs of places in `old` and `new`.
    static func pairs(old: [Int], new: [Int]) -> [(old: Int, new: Int)] {
        if old.isEmpty || new.isEmpty { return [] }
        // Nearly always one of each: one order edited.
        if old.count == 1, new.count == 1 { return [(0, 0)] }
        // Row order, the old row first where both lists have it; each entry its list and place.
        let merged = (old.indices.map { Point(row: old[$0], isNew: false, place: $0) } + new.indices.map { Point(row: new[$0], isNew: true, place: $0) })
            .sorted { ($0.row, $0.isNew ? 1 : 0) < ($1.row, $1.isNew ? 1 : 0) }
        var previous = Array(-1..<(merged.count - 1))
        var next = Array(1...merged.count)
        next[merged.count - 1] = -1
        var taken = [Bool](repeating: false, count: merged.count)
        var candidates = HeapModule.Heap<Candidate>()
        func consider(_ left: Int, _ right: Int) {
            guard left >= 0, right >= 0, merged[left].isNew != merged[right].isNew else { return }
            let (oldPoint, newPoint) = merged[left].isNew ? (merged[right], merged[left]) : (merged[left], merged[right])
            candidates.insert(
                Candidate(distance: abs(oldPoint.row - newPoint.row), oldRow: oldPoint.row, newRow: newPoint.row, left: left, right: right))
        }
        for index in 0..<(merged.count - 1) { consider(index, index + 1) }
        var result: [(old: Int, new: Int)] = []
        result.reserveCapacity(min(old.count, new.count))
        while result.count < min(old.count, new.count), let candidate = candidates.popMin() {
            // Neighbours stay neighbours while both are left: nothing is ever put between them.
            guard !taken[candidate.left], !taken[candidate.right] else { continue }
            taken[candidate.left] = true
            taken[candidate.right] = true
            let (left, right) = (merged[candidate.left], merged[candidate.right])
            result.append(left.isNew ? (right.place, left.place) : (left.place, right.place))
            let (before, after) = (previous[candidate.left], next[candidate.right])
            if before >= 0 { next[before] = after }
            if after >= 0 { previous[after] = before }
            consider(before, after)
        }
        return result
    }

    private struct Point {
        var row: Int
        var isNew: Bool
        var place: Int
    }

    private struct Candidate: Comparable {
        var distance: Int
        var oldRow: Int
        var newRow: Int
        /// Places in the merged list.
        var left: Int
        var right: Int

        static func < (a: Self, b: Self) -> Bool {
            (a.distance, a.oldRow, a.newRow) < (b.distance, b.oldRow, b.newRow)
        }

        static func == (a: Self, b: Self) -> Bool {
            (a.distance, a.oldRow, a.newRow) == (b.distance, b.oldRow, b.newRow)
        }
    }
}
