import OrderPressCatalogue
import OrderPressSupport
import OrderPressValidate

extension Labels {
    /// A reason or warning as Markdown in the site's language, for the pages members read: its code's text
    /// with the values escaped and put in — the members' words where the organiser's advise what only the
    /// organiser can do (`memberKey`). Where the text is the built-in English one of a code without members'
    /// words (an English site, no `[labels]` override) the reason's own English sentence is shown, word for
    /// word what `orderpress check` prints.
    package func reason(_ reason: Reason) -> String {
        let key = memberKey(reason.code)
        if key == reason.code.labelKey, self[key] == ReasonCatalogue.english[key] { return MarkdownEscaper.escape(reason.english) }
        // The built-in texts' words are escaped too: a reason names things like `cast_numbers`.
        let names = Array(reason.values.keys)
        return Filler(self[key], names: names, literal: MarkdownEscaper.escape).fill(names.map { MarkdownEscaper.escape(shown(reason.values[$0]!, named: $0)) })
    }

    /// The label a page shows for `code`: its members' words where it has them, unless the site's `[labels]`
    /// gave its own words for the code's text and none for the members' (theirs stand, as written).
    private func memberKey(_ code: ReasonCode) -> String {
        let member = code.memberLabelKey
        guard plain[member] != nil, !overridden.contains(code.labelKey) || overridden.contains(member) else { return code.labelKey }
        return member
    }

    /// A reason's value as the page shows it: a source's name (`{table}`: `orders`, `groups`) in the
    /// site's language, like the rest of the sentence; any other value as it is.
    private func shown(_ value: String, named name: String) -> String {
        guard name == "table", Labels.keys.contains("reason_table_\(value)") else { return value }
        return self["reason_table_\(value)"]
    }

    /// A rejected row's reasons, joined; the English ones for a row kept without their codes.
    package func reasons(of row: RejectedRow) -> String {
        row.details.isEmpty
            ? row.reasons.map(MarkdownEscaper.escape).joined(separator: "; ")
            : row.details.map(reason).joined(separator: self["reason_separator"])
    }

    /// A warning in the site's language (its English for one kept without a code).
    package func warning(_ warning: DataWarning) -> String {
        warning.reason.map(reason) ?? MarkdownEscaper.escape(warning.message)
    }
}
