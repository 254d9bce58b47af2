@testable import OrderPressSlugs

extension Slugger {
    /// `assignInOrder` as a dictionary by key.
    package static func assign(_ keys: some Sequence<String>, fallback: String, kept: [String: String] = [:]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: assignInOrder(keys, fallback: fallback, kept: kept).lazy.map { ($0.key, $0.slug) })
    }
}
