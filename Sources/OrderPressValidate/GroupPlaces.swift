import OrderPressSupport

/// Each group's place in a list of groups, by name (the first group of a name; the validator's groups
/// source drops repeats): every order's group is looked up as it is validated and again for its pages,
/// and every group of every person's page.
package struct GroupPlaces: Sendable {
    private let places: TextDictionary<Int>

    package init(_ groups: [Group]) {
        places = TextDictionary(Dictionary(groups.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    /// The place of the group of this name.
    package func place(_ name: String) -> Int? { places[name] }

    /// The places of the groups of these names.
    package func places(named names: some Collection<String>) -> [Int] {
        names.compactMap { places[$0] }
    }
}
