/// The file names of the group and person pages, by group name and by person key. They depend on the
/// validated data alone (the people are those the orders name), so a build makes them while the
/// orders are aggregated: at a million orders, handing out 100,000 people's names is half a second
/// on one core, at a time when the aggregation leaves a core idle.
struct SiteSlugs: Sendable {
    var groups: [String: String]
    var people: [String: String]

    /// The slugs in the order `PageSlugs` stores them, for the state (`kept` of the next build).
    let handedOut: (groups: [(key: String, slug: String)], people: [(key: String, slug: String)])

    /// `kept`: the slugs the last build handed out, which stay with their groups and people.
    /// `tombstones`: the people and groups whose pages stay after their orders were deleted, last.
    init(_ data: ValidatedData, kept: PageSlugs? = nil, tombstones: Tombstones = .none) {
        let groupList = Slugger.assignInOrder(data.groups.map(\.name) + tombstones.groups.map(\.key), fallback: "group", kept: kept?.groups ?? [:])
        // Each key read through a pointer: `orders.lazy.map(\.personKey)` copied every order (5 M instructions at 10,000).
        let orderKeys = data.orders.withUnsafeBufferPointer { orders in
            Self.distinct((0..<orders.count).lazy.map { (orders.baseAddress! + $0).pointee.personKey.text })
        }
        // `Slugger.assign` takes the keys as a set: every person the aggregation lists, whatever their order.
        // Then the people known only from rejected rows, whose page lists those rows.
        let personKeys = orderKeys + RejectedIndex.peopleOnlyRejected(data.rejected, orders: data.orders).map(\.key)
            + tombstones.people.map(\.key)
        let personList = Slugger.assignInOrder(personKeys, fallback: "person", kept: kept?.people ?? [:])
        handedOut = (groupList, personList)
        groups = Dictionary(uniqueKeysWithValues: groupList.lazy.map { ($0.key, $0.slug) })
        people = Dictionary(uniqueKeysWithValues: personList.lazy.map { ($0.key, $0.slug) })
    }

    /// Each text of `texts` once (the first of equal ones), in order. A set of a hundred thousand
    /// `String`s hashes each one's Unicode; most of an order's keys are a short text seen before, found
    /// first by its words (`TextBits`), so only the distinct ones are hashed as text.
    /// What the state keeps of them (`PageSlugs`).
    var storedText: String { PageSlugs.text(groups: handedOut.groups, people: handedOut.people) }

    static func distinct(_ texts: some Sequence<String>) -> [String] {
        // A `FlatTable`, not a `Set`: a `Set` runs SipHash over the two words, some 300 instructions an order.
        var seen = FlatTable<TextBits>()
        var unique = Set<String>()
        var result: [String] = []
        for text in texts {
            if let bits = TextBits(text) {
                guard seen[bits] == nil else { continue }
                seen.insert(bits, 0)
            }
            if unique.insert(text).inserted { result.append(text) }
        }
        return result
    }
}
