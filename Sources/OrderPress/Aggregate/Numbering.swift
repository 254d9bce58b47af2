/// Numbers the distinct values of a key (by the key's own equality: person keys and group names as
/// `String`s, canonically equivalent texts alike) in the order they first occur, and remembers where
/// each first occurred. Each share of the orders is numbered on its own core; `merge` then folds the
/// shares' numberings into one, in sheet order, looking up only their distinct keys.
struct Numbering<Key: Hashable> {
    private var numbers: [Key: Int32] = [:]
    /// By number: the position of the first order with the key.
    private(set) var firsts: [UInt32] = []

    var count: Int { firsts.count }

    /// By number: the key as it first occurred.
    private(set) var keys: [Key] = []

    mutating func number(_ key: Key, at position: UInt32) -> Int32 {
        if let known = numbers[key] { return known }
        let number = Int32(firsts.count)
        numbers[key] = number
        keys.append(key)
        firsts.append(position)
        return number
    }

    /// Numbers `later`'s keys here, `later` holding positions after all of this one's; returns this
    /// numbering's number for each of `later`'s.
    mutating func merge(_ later: Numbering) -> [Int32] {
        zip(later.keys, later.firsts).map { number($0, at: $1) }
    }
}
