/// Each group's place in the sheet's list of groups, by name (the first group of a name), and the same
/// for names of up to 15 bytes by their bits (`TextBits`): every order's group and every group of every
/// person's page is looked up, and a `String` key hashes the normalised text.
struct GroupPlaces: Sendable {
    private let byName: [String: Int]
    private let byBits: [TextBits: Int]

    init(_ groups: [Group]) {
        let byName = Dictionary(groups.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.byName = byName
        byBits = Dictionary(
            groups.compactMap { group in TextBits(group.name).map { ($0, byName[group.name]!) } }, uniquingKeysWith: { first, _ in first })
    }

    /// The place of the group of this name.
    func place(_ name: String) -> Int? {
        if let bits = TextBits(name), let place = byBits[bits] { return place }
        return byName[name]
    }

    /// The places of the groups of these names (by the text alone).
    func places(named names: some Collection<String>) -> [Int] {
        names.compactMap { byName[$0] }
    }
}
