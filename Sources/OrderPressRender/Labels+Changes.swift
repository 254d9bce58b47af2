import OrderPressCatalogue
import OrderPressDiff

extension Labels {
    /// "2 deleted, 1 added", or the first-run sentence: a change set in this language.
    package func summary(_ changes: ChangeSet) -> String {
        if changes.firstRun { return self["first_run"] }
        let parts = [
            ("deleted_count", changes.deleted.count), ("no_longer_counted_count", changes.noLongerCounted.count),
            ("added_count", changes.added.count), ("changed_count", changes.changed.count), ("now_counted_count", changes.nowCounted.count),
        ]
        let rounds = Set((changes.roundClosed ?? []).map(\.group)).sorted()
        let closed = rounds.isEmpty ? [] : [text("round_closed_count", ["groups": rounds.joined(separator: self["list_separator"])])]
        return (closed + parts.filter { $0.1 > 0 }.map { text($0.0, ["count": String($0.1)]) }).joined(separator: self["list_separator"])
    }
}
