/// The slugs a build handed out, kept in the state so that a page stays at its address: a newcomer
/// whose name makes the same slug as someone's already published page gets the suffix, never the
/// other way round (adding "-a my" must not move "a my" from `people/a-my` to `people/a-my-c15410`,
/// where bookmarks and git history would then point at another person).
///
/// Stored as text, one line per key, `g` or `p`, a tab, the group name or person key, a tab, the slug,
/// in the order `Slugger.assignInOrder` hands them out. Names and keys are normalised text
/// (`Text.normalize`), which holds no tab or line break, so the lines need no escaping; a line that does
/// not read is skipped, and its key gets the slug a build from scratch gives it.
struct PageSlugs: Sendable, Equatable {
    var groups: [String: String] = [:]
    var people: [String: String] = [:]

    init(groups: [String: String] = [:], people: [String: String] = [:]) {
        self.groups = groups
        self.people = people
    }

    /// Reads what `text(groups:people:)` wrote; nil for no text (a state from before slugs were kept).
    init?(text: String?) {
        guard let text else { return nil }
        // Split at the bytes of the line break and the tab, not at `Character`s: splitting the text of
        // 10,000 people by grapheme clusters was most of what a rerun spent on their slugs. The two are
        // whole scalars and never part of a name (see above), so the slices are whole texts.
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            let fields = line.split(separator: UInt8(ascii: "\t"), maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, !fields[1].isEmpty, !fields[2].isEmpty else { continue }
            let (key, slug) = (String(Substring(fields[1])), String(Substring(fields[2])))
            if fields[0].elementsEqual("g".utf8) {
                groups[key] = slug
            } else if fields[0].elementsEqual("p".utf8) {
                people[key] = slug
            }
        }
    }

    /// The text of the slugs, in the order given (`Slugger.assignInOrder`'s, sorted by key): the same
    /// slugs always make the same text, so a build that moves none leaves the stored text as it is.
    static func text(groups: [(key: String, slug: String)], people: [(key: String, slug: String)]) -> String {
        var text = ""
        text.reserveCapacity((groups.count + people.count) * 32)
        for (kind, list) in [("g", groups), ("p", people)] {
            for (key, slug) in list {
                text += kind
                text += "\t"
                text += key
                text += "\t"
                text += slug
                text += "\n"
            }
        }
        return text
    }
}
