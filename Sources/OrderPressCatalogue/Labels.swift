import OrderPressSupport

/// The interface's words in the site's language: a built-in catalogue chosen by `language`, with
/// single labels overridden by `[labels]`. Data is never translated, and numbers and dates keep one
/// format whatever the language.
package struct Labels: Sendable {
    /// Plain text by key.
    package let plain: [String: String]

    package init(language: String, overrides: [String: String] = [:]) {
        let column = LabelCatalogue.languages.firstIndex(of: Self.catalogue(for: language))!
        var plain: [String: String] = [:]
        for row in Self.rows {
            plain[row.key] = [row.en, row.zhHant, row.zhHans, row.ja][column]
        }
        var overrides = overrides
        for (key, en) in LabelCatalogue.singulars {
            plain[key + Self.singular] = column == 0 ? en : plain[key]
            // A label overridden without its singular keeps the user's words for one too.
            if let text = overrides[key], overrides[key + Self.singular] == nil { overrides[key + Self.singular] = text }
        }
        self.plain = plain.merging(overrides) { $1 }
        overridden = Set(overrides.keys)
    }

    /// The suffix of a label's singular (see `LabelCatalogue.singulars`).
    private static let singular = "_one"

    /// The key of the label's singular when the number it counts is 1, else the key.
    private func variant(_ key: String, _ values: [String: String]) -> String {
        guard values["count"] == "1" || values["hours"] == "1", plain[key + Self.singular] != nil else { return key }
        return key + Self.singular
    }

    /// Keys whose text came from the configuration: escaped for Markdown, where the built-in
    /// labels (which a test keeps free of Markdown syntax) stay as written, readable in git.
    package let overridden: Set<String>

    package static let keys: Set<String> = Set(rows.map(\.key) + LabelCatalogue.singulars.map { $0.key + singular })

    /// The interface's labels and the reasons' texts (`ReasonCatalogue`).
    package static let rows: [LabelCatalogue.Row] = LabelCatalogue.rows + ReasonCatalogue.rows

    /// The nearest built-in catalogue for a language tag: zh-TW → zh-Hant, zh-CN → zh-Hans,
    /// ja-JP → ja, anything unknown → en.
    static func catalogue(for tag: String) -> String {
        let parts = tag.replacingOccurrences(of: "_", with: "-").lowercased().split(separator: "-").map(String.init)
        switch parts.first {
        case "ja": return "ja"
        case "zh":
            let rest = Set(parts.dropFirst())
            if rest.contains("hant") || !rest.isDisjoint(with: ["tw", "hk", "mo"]) { return "zh-Hant" }
            return "zh-Hans"
        default: return "en"
        }
    }

    package subscript(key: String) -> String { plain[key] ?? key }

    /// The label with each `{name}` replaced by its value, as plain text.
    package func text(_ key: String, _ values: [String: String] = [:]) -> String {
        fill(self[variant(key, values)], values, literal: { $0 })
    }

    /// The label as Markdown: its own words escaped, the values (already Markdown) put in as they are.
    package func markdown(_ key: String, _ values: [String: String] = [:]) -> String {
        let key = variant(key, values)
        return fill(self[key], values, literal: overridden.contains(key) ? MarkdownEscaper.escape : { $0 })
    }

    /// Every label as Markdown, for the page templates (`{{labels.total}}`).
    package var markdownTable: [String: String] {
        Dictionary(uniqueKeysWithValues: plain.keys.map { ($0, markdown($0)) })
    }

    /// `markdown(key, values)` with the values named `names`, split once: for a sentence on every
    /// page of a kind ("155 TWD to 王小明 for 週五下午茶" on each person's), rather than each page
    /// finding the placeholders and escaping the label's words again.
    package func markdownFiller(_ key: String, names: [String]) -> Filler {
        Filler(self[key], names: names, literal: overridden.contains(key) ? MarkdownEscaper.escape : { $0 })
    }

    private func fill(_ template: String, _ values: [String: String], literal: (String) -> String) -> String {
        let names = Array(values.keys)
        return Filler(template, names: names, literal: literal).fill(names.map { values[$0]! })
    }

    /// A label split at the placeholders of the values it is filled with; `{…}` naming no value stays as written.
    package struct Filler: Sendable {
        private enum Part: Sendable {
            case text(String)
            /// The place of the value in the names.
            case value(Int)
        }

        private let parts: [Part]

        package init(_ template: String, names: [String], literal: (String) -> String) {
            var parts: [Part] = []
            var text = ""
            var rest = Substring(template)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                guard let value = names.firstIndex(of: String(rest[rest.index(after: open)..<close])) else {
                    text += literal(String(rest[...open]))
                    rest = rest[rest.index(after: open)...]
                    continue
                }
                parts += [.text(text + literal(String(rest[..<open]))), .value(value)]
                text = ""
                rest = rest[rest.index(after: close)...]
            }
            self.parts = parts + [.text(text + literal(String(rest)))]
        }

        /// The label with each placeholder replaced by the value of the same place as its name.
        package func fill(_ values: [String]) -> String {
            var result = ""
            for part in parts {
                switch part {
                case .text(let text): result += text
                case .value(let place): result += values[place]
                }
            }
            return result
        }
    }
}
