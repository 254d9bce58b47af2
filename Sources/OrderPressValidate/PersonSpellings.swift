import OrderPressSupport

/// The people whose rows write their name in more than one way (one `PersonKey`, several spellings):
/// the spelling their pages, totals and lists show — the one most of their rows use, ties going to the
/// first in the sheet — and every spelling merged, for the Attention page. Most people write their
/// name one way and are not here: their spelling is their rows'.
public struct PersonSpellings: Sendable, Equatable {
    public struct Merged: Sendable, Equatable {
        /// Every spelling, the most used first (ties: the first in the sheet); the first is shown.
        public var spellings: [String]
        /// The sheet row that first names them.
        public var row: Int

        public var shown: String { spellings[0] }
    }

    /// One spelling: how many rows write it, and where it first occurs.
    private struct Written {
        var text: String
        var key: PersonKey
        var count: Int
        var first: Int
        var row: Int
    }

    /// By `PersonKey.text`.
    public private(set) var merged: [String: Merged] = [:]

    public init() {}

    /// `names`: each row's person, key and sheet row, in sheet order; rows naming nobody are skipped.
    package init(_ names: some Sequence<(person: String, key: PersonKey, row: Int)>) {
        // Each distinct spelling once: by its words first (`TextBits`), a row's name is mostly one seen before.
        var known = FlatTable<TextBits>()
        var byText: [String: Int32] = [:]
        var spellings: [Written] = []
        for (person, key, row) in names where !person.isEmpty {
            let bits = TextBits(person)
            var index = bits.flatMap { known[$0] }
            if index == nil {
                index = byText[person]
                if index == nil {
                    index = Int32(spellings.count)
                    byText[person] = index
                    spellings.append(Written(text: person, key: key, count: 0, first: spellings.count, row: row))
                }
                if let bits { known.insert(bits, index!) }
            }
            spellings[Int(index!)].count += 1
        }
        guard spellings.count > 1 else { return }
        // Then the distinct spellings by key: only keys written two ways are kept.
        var byKey: [PersonKey: [Int]] = [:]
        byKey.reserveCapacity(spellings.count)
        for index in spellings.indices { byKey[spellings[index].key, default: []].append(index) }
        for (key, indices) in byKey where indices.count > 1 {
            let sorted = indices.sorted { (-spellings[$0].count, spellings[$0].first) < (-spellings[$1].count, spellings[$1].first) }
            merged[key.text] = Merged(spellings: sorted.map { spellings[$0].text }, row: indices.map { spellings[$0].row }.min()!)
        }
    }

    /// The name shown for the person of `key` whose rows write `name`.
    public func shown(_ key: String, else name: String) -> String {
        merged.isEmpty ? name : merged[key]?.shown ?? name
    }

    /// One warning per person merged from spellings that differ in more than case, for the Attention
    /// page and `check`: "伊藤 健 / 伊藤健 → one person". `Amy` and `amy` were always one person.
    package var warnings: [DataWarning] {
        merged.values.filter { Set($0.spellings.map(Text.lowercased)).count > 1 }.map { person in
            let joined = person.spellings.joined(separator: " / ")
            return DataWarning(
                row: person.row,
                Reason(
                    .personSpellingsMerged, ["spellings": joined, "name": person.shown]))
        }
    }
}
