import Foundation
import OrderPressSupport

/// What a round's close is decided from besides the sheet (`[rounds] close_after_deadline`): when the last
/// published snapshot was made, and since when orders have been missing in runs the guard refused. A round
/// closes only if the last published snapshot, made after its deadline, still held its orders: orders that
/// vanished before the deadline stay deletions however late the next build that publishes comes.
/// Kept in the state as one setting (`StateDatabase.roundWatchKey`).
package struct RoundWatch: Codable, Sendable, Equatable {
    /// When the build that saved the last snapshot ran (ISO 8601); nil in a state saved before it was kept.
    package var seenAt: String?
    /// Group → when a refused run first found some of its orders missing (ISO 8601). Cleared by the next
    /// build that publishes: its snapshot then says what is there.
    package var missingSince: [String: String] = [:]

    enum CodingKeys: String, CodingKey {
        case seenAt = "seen_at"
        case missingSince = "missing_since"
    }

    /// The stored setting; nil or unreadable text is an empty watch.
    package init(text: String?) {
        self = text.flatMap { try? JSONDecoder().decode(RoundWatch.self, from: Data($0.utf8)) } ?? RoundWatch()
    }

    package init(seenAt: String? = nil, missingSince: [String: String] = [:]) {
        self.seenAt = seenAt
        self.missingSince = missingSince
    }

    /// As stored: sorted keys, so the same watch is the same text.
    package var text: String { String(decoding: JSONOutput.encode(self), as: UTF8.self) }

    /// This watch with `groups` noted missing at `time`, each keeping the earliest time it was noted.
    func noting(missing groups: Set<String>, at time: String) -> RoundWatch {
        var watch = self
        for group in groups where watch.missingSince[group] == nil { watch.missingSince[group] = time }
        return watch
    }
}
