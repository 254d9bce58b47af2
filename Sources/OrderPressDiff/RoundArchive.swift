import Foundation
import OrderPressSupport

/// A finished round (`[rounds] close_after_deadline`): a group whose deadline had passed when all its
/// orders were cleared, as it stood at its last build. Kept in the state (`StateContents.archives`) and
/// published by every later build as `archive/<slug>/<date>`, so the organiser can still see who ordered
/// what and who paid after the sheet has moved on to the next round.
public struct RoundArchive: Codable, Sendable, Equatable {
    public var group: String
    /// The page's folder below `archive/`: the group's name as a slug, given once when it is archived.
    public var slug: String
    /// The deadline's day in the site's time zone (`2026-11-21`): the page's name.
    public var date: String
    /// The deadline as the group's page showed it.
    public var deadline: String
    public var organizer: String
    public var shop: String
    /// When the run that closed the round saw the orders gone (ISO 8601).
    public var closedAt: String
    public var orders: [Line]
    /// The group's currency, fee and discount (exact decimals) as the groups source had them when the
    /// round closed, for the page to share them out as the group page did; nil without a fee or a
    /// discount, and in archives kept before they were recorded.
    public var currency: String? = nil
    public var fee: String? = nil
    public var discount: String? = nil
    /// How to pay the organiser (the group's `payment`) when the round closed; nil without one.
    public var payment: String? = nil
    /// The group's second (third…) round closed on the same day: its page is `<date>-<number>`. Nil for the first.
    public var number: Int? = nil

    /// One order of the round, as the last snapshot had it.
    public struct Line: Codable, Sendable, Equatable {
        public var person: String
        public var item: String
        public var options: [String]
        public var quantity: Int
        /// Exact amount in `currency`.
        public var amount: String
        public var currency: String
        /// Nil when the sheet has no `paid` column.
        public var paid: Bool?
    }

    enum CodingKeys: String, CodingKey {
        case group, slug, date, deadline, organizer, shop, orders, currency, fee, discount, payment, number
        case closedAt = "closed_at"
    }

    /// `archive/<slug>/<date>`, without extension.
    public var path: String { "archive/\(slug)/\(date)" + (number.map { "-\($0)" } ?? "") }

    /// The stored list, oldest first; nil or unreadable text is none.
    package static func list(from text: String?) -> [RoundArchive] {
        guard let text, let list = try? JSONDecoder().decode([RoundArchive].self, from: Data(text.utf8)) else { return [] }
        // Names of published files: one folder and one file below `archive/`, never a way out of it.
        return list.filter { ContainedPath.isPlain($0.path) && !$0.slug.contains("/") && !$0.date.contains("/") && !$0.slug.isEmpty && !$0.date.isEmpty }
    }

    /// The list as stored: sorted keys, so the same archives are the same text.
    package static func text(of list: [RoundArchive]) -> String? {
        list.isEmpty ? nil : String(decoding: JSONOutput.encode(list), as: UTF8.self)
    }
}
