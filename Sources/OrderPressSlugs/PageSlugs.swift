import OrderPressValidate

/// The slugs a build handed out, kept in the state so that a page stays at its address: a newcomer
/// whose name makes the same slug as someone's already published page gets the suffix, never the
/// other way round (adding "-a my" must not move "a my" from `people/a-my` to `people/a-my-c15410`,
/// where bookmarks and git history would then point at another person).
///
/// Stored as text, one line per key, `g` or `p`, a tab, the group name or person key, a tab, the slug,
/// in the order `Slugger.assignInOrder` hands them out. Names and keys are normalised text
/// (`Text.normalize`), which holds no tab or line break, so the lines need no escaping; a line that does
/// not read is skipped, and its key gets the slug a build from scratch gives it.
///
/// People are keyed by `PersonKey`; a state written when keys were the lower-cased name is read by
/// folding each key again. Two spellings that had a page each and are now one person keep the first
/// line's slug; the other slugs become `aliases` (lines `a`, key, slug): pages that point to the
/// person's, so that no link to the old page dies.
package struct PageSlugs: Sendable, Equatable {
    package var groups: [String: String] = [:]
    package var people: [String: String] = [:]
    /// By person key: the slugs of the pages that point to theirs, sorted.
    package var aliases: [String: [String]] = [:]

    package init(groups: [String: String] = [:], people: [String: String] = [:], aliases: [String: [String]] = [:]) {
        self.groups = groups
        self.people = people
        self.aliases = aliases
    }

    /// Reads what `text(groups:people:)` wrote; nil for no text (a state from before slugs were kept).
    package init?(text: String?) {
        guard var text else { return nil }
        text.withUTF8 { bytes in
            // Read byte by byte: splitting the text into arrays of slices, each line again at its tabs, was
            // most of reading the people's slugs. Line breaks and tabs are
            // whole scalars and never part of a name (see above), so the pieces between them are whole texts.
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                read(line: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                start = end + 1
            }
        }
    }

    /// One line: `g` or `p`, a tab, a key, a tab, a slug (which may hold tabs); anything else is skipped.
    private mutating func read(line: UnsafeBufferPointer<UInt8>) {
        guard let first = line.firstIndex(of: UInt8(ascii: "\t")),
            let second = line[(first + 1)...].firstIndex(of: UInt8(ascii: "\t")),
            second > first + 1, second + 1 < line.count
        else { return }
        let kind = line[..<first]
        guard kind.count == 1, [UInt8(ascii: "g"), UInt8(ascii: "p"), UInt8(ascii: "a")].contains(kind[0]) else { return }
        let key = String(decoding: UnsafeBufferPointer(rebasing: line[(first + 1)..<second]), as: UTF8.self)
        let slug = String(decoding: UnsafeBufferPointer(rebasing: line[(second + 1)...]), as: UTF8.self)
        if kind[0] == UInt8(ascii: "g") {
            groups[key] = slug
            return
        }
        let person = PersonKey(key).text
        if kind[0] == UInt8(ascii: "p"), people[person] == nil {
            people[person] = slug
        } else if people[person] != slug, !(aliases[person]?.contains(slug) ?? false) {
            aliases[person, default: []].append(slug)
        }
    }

    /// The text of the slugs, in the order given (`Slugger.assignInOrder`'s, sorted by key): the same
    /// slugs always make the same text, so a build that moves none leaves the stored text as it is.
    package static func text(
        groups: [(key: String, slug: String)], people: [(key: String, slug: String)], aliases: [(key: String, slug: String)] = []
    ) -> String {
        var text = ""
        text.reserveCapacity((groups.count + people.count) * 32)
        for (kind, list) in [("g", groups), ("p", people), ("a", aliases)] {
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
