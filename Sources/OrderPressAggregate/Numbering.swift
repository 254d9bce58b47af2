/// Numbers the distinct values of a key (by the key's own equality: person keys and group names as
/// `String`s, canonically equivalent texts alike) in the order they first occur, and remembers where
/// each first occurred. Each share of the orders is numbered on its own core; `merge` then folds the
/// shares' numberings into one, in sheet order, looking up only their distinct keys.
struct Numbering<Key: Hashable> {
    private var numbers: [Key: Int32] = [:]
    /// By number: the position of the first order with the key.
    private(set) var firsts: [UInt32] = []

    package var count: Int { firsts.count }

    /// By number: the key as it first occurred.
    private(set) var keys: [Key] = []

    /// By number: whether a key numbered so was written otherwise than `keys` holds it (equal, but in
    /// other bytes: canonically equivalent texts), so that its text must be read where it was written.
    /// Only kept when the numbering is made with `identical`.
    private(set) var variants: [Bool] = []
    private var identical: ((Key, Key) -> Bool)?

    init(identical: ((Key, Key) -> Bool)? = nil) {
        self.identical = identical
    }

    /// The number of `key`, if it has one.
    func existing(_ key: Key) -> Int32? { numbers[key] }

    mutating func number(_ key: Key, at position: UInt32) -> Int32 {
        if let known = numbers[key] {
            if let identical, !variants[Int(known)], !identical(keys[Int(known)], key) { variants[Int(known)] = true }
            return known
        }
        let number = Int32(firsts.count)
        numbers[key] = number
        keys.append(key)
        firsts.append(position)
        variants.append(false)
        return number
    }

    /// Numbers `later`'s keys here, `later` holding positions after all of this one's; returns this
    /// numbering's number for each of `later`'s.
    mutating func merge(_ later: Numbering) -> [Int32] {
        let numbers = zip(later.keys, later.firsts).map { number($0, at: $1) }
        for (index, variant) in later.variants.enumerated() where variant { variants[Int(numbers[index])] = true }
        return numbers
    }
}

extension Numbering where Key == String {
    /// Texts numbered by `String` equality, noting those written in other bytes (`variants`).
    static func texts() -> Numbering { Numbering(identical: { $0.utf8.elementsEqual($1.utf8) }) }
}
