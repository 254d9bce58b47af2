import OrderPressDiff
import OrderPressSlugs
import OrderPressSupport
import OrderPressValidate

/// The file names of the group and person pages, by group name and by person key. They depend on the
/// validated data alone (the people are those the orders name), so a build makes them while the
/// orders are aggregated: at a million orders, handing out 100,000 people's names is half a second
/// on one core, at a time when the aggregation leaves a core idle.
package struct SiteSlugs: Sendable {
    package var groups: [String: String]
    package var people: [String: String]

    /// By person key, the slugs of earlier pages of a spelling merged into theirs (`PageSlugs.aliases`),
    /// each a page pointing to theirs.
    let aliases: [(key: String, slug: String)]

    /// The slugs in the order `PageSlugs` stores them, for the state (`kept` of the next build).
    let handedOut: (groups: [(key: String, slug: String)], people: [(key: String, slug: String)])

    /// `kept`: the slugs the last build handed out, which stay with their groups and people.
    /// `tombstones`: the people and groups whose pages stay after their orders were deleted, last.
    /// `archives`: the finished rounds, whose people keep a page.
    package init(_ data: ValidatedData, archives: [RoundArchive] = [], kept: PageSlugs? = nil, tombstones: Tombstones = .none) {
        let groupList = Slugger.assignInOrder(data.groups.map(\.name) + tombstones.groups.map(\.key), fallback: "group", kept: kept?.groups ?? [:])
        // Each key read through a pointer: `orders.lazy.map(\.personKey)` copied every order.
        let orderPeople = data.orders.withUnsafeBufferPointer { orders in
            Self.distinct((0..<orders.count).lazy.map { (orders.baseAddress! + $0).pointee.personKey.text }) { orders[$0].person }
        }
        // Every person the aggregation lists, whatever their order, each slugged from the name their pages
        // show; then the people known only from rejected rows, whose page lists those rows.
        let spellings = data.spellings
        var named = (orderPeople + RejectedIndex.peopleOnlyRejected(data.rejected, orders: data.orders)).map { person in
            (key: person.key, name: spellings.shown(person.key, else: person.name))
        } + tombstones.people.map { (key: $0.key, name: $0.name) }
        // Everyone a finished round names keeps a page, last (`RoundPeople`).
        if !archives.isEmpty {
            var present = Set(named.map(\.key))
            named += RoundPeople.named(in: archives).filter { present.insert($0.key).inserted }
        }
        let keptAliases = kept?.aliases ?? [:]
        let personList = Slugger.assignInOrder(
            named: named, fallback: "person", kept: kept?.people ?? [:], aliases: Set(keptAliases.values.joined()))
        var aliases: [(key: String, slug: String)] = []
        if !keptAliases.isEmpty {
            for (key, slug) in personList {
                for alias in keptAliases[key]?.sorted() ?? [] where alias != slug { aliases.append((key, alias)) }
            }
        }
        self.aliases = aliases
        handedOut = (groupList, personList)
        groups = Dictionary(uniqueKeysWithValues: groupList.lazy.map { ($0.key, $0.slug) })
        people = Dictionary(uniqueKeysWithValues: personList.lazy.map { ($0.key, $0.slug) })
    }

    /// Each text of `texts` once (the first of equal ones), in order. A set of a hundred thousand
    /// `String`s hashes each one's Unicode; most of an order's keys are a short text seen before, found
    /// first by its words (`TextBits`), so only the distinct ones are hashed as text.
    /// What the state keeps of them (`PageSlugs`).
    package var storedText: String { PageSlugs.text(groups: handedOut.groups, people: handedOut.people, aliases: aliases) }

    static func distinct(_ texts: some Sequence<String>) -> [String] {
        distinct(texts) { _ in "" }.map(\.key)
    }

    /// `distinct`, each with `name` of the place it first occurs.
    static func distinct(_ texts: some Sequence<String>, name: (Int) -> String) -> [(key: String, name: String)] {
        // A `FlatTable`, not a `Set`: a `Set` runs SipHash over the two words for every order.
        var seen = FlatTable<TextBits>()
        var unique = Set<String>()
        var result: [(key: String, name: String)] = []
        for (index, text) in texts.enumerated() {
            if let bits = TextBits(text) {
                guard seen[bits] == nil else { continue }
                seen.insert(bits, 0)
            }
            if unique.insert(text).inserted { result.append((text, name(index))) }
        }
        return result
    }
}
