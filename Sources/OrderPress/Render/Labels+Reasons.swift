extension Labels {
    /// A reason or warning as Markdown in the site's language: its code's text with the values escaped
    /// and put in. Where that text is the built-in English one (an English site, no `[labels]` override)
    /// the reason's own English sentence is shown, word for word what `orderpress check` prints.
    func reason(_ reason: Reason) -> String {
        let key = reason.code.labelKey
        if self[key] == ReasonCatalogue.english[key] { return MarkdownEscaper.escape(reason.english) }
        // The built-in texts' words are escaped too: a reason names things like `cast_numbers`.
        let names = Array(reason.values.keys)
        return Filler(self[key], names: names, literal: MarkdownEscaper.escape).fill(names.map { MarkdownEscaper.escape(reason.values[$0]!) })
    }

    /// A rejected row's reasons, joined; the English ones for a row kept without their codes.
    func reasons(of row: RejectedRow) -> String {
        row.details.isEmpty
            ? row.reasons.map(MarkdownEscaper.escape).joined(separator: "; ")
            : row.details.map(reason).joined(separator: self["reason_separator"])
    }

    /// A warning in the site's language (its English for one kept without a code).
    func warning(_ warning: DataWarning) -> String {
        warning.reason.map(reason) ?? MarkdownEscaper.escape(warning.message)
    }
}
