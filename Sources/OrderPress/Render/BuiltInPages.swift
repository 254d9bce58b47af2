import Foundation

/// The built-in templates as the build writes them: every page is compiled from its template against
/// its typed model (`GeneratedPages`, made by `scripts/generate-pages.py`), the tables of orders and
/// people from cells that write themselves (`PageCell`); here are what those pages share in a build
/// (`Shared`) and the layout cut around each page's title and body (`Layout`). `BuiltInPagesTests`
/// renders sites through the compiled templates and through swift-mustache on the same templates and
/// requires the same bytes; they are used only while the template in use is the built-in one.
enum BuiltInPages {
    /// The templates compiled to Swift, by name.
    static let kinds: Set<String> = GeneratedPages.templates.union(["layout"])

    /// What the built-in templates show the same on every page of a build, made once.
    struct Shared: Sendable {
        /// The layout around a page at the top of the site and around one a folder down.
        let topLayout: Layout
        let nestedLayout: Layout
        /// The labels the compiled templates show, looked up once.
        let labels: GeneratedPages.LabelTable
        /// By place in `data.groups`: the group's name escaped, and its page from a person's page.
        let groupNames: [String]
        let groupLinks: [String]
        /// After the time of an order made after its group's deadline.
        let lateMark: String

        init(_ context: SiteContext) {
            topLayout = Layout(context.layoutModel(root: ""))
            nestedLayout = Layout(context.layoutModel(root: "../"))
            labels = GeneratedPages.LabelTable(context.markdownLabels)
            groupNames = context.data.groups.map { MarkdownEscaper.escape($0.name) }
            groupLinks = context.data.groups.map { "../groups/\(context.groupSlugs[$0.name]!).md" }
            lateMark = context.markdownLabels["late_mark"] ?? ""
        }
    }

    /// The compiled `layout.html.mustache` (`GeneratedPages.layout`), cut once per build into runs of
    /// bytes around the two values that change from page to page, its title and its body. The layout
    /// branches only on its other values, never on a title's or body's text, so writing the page's
    /// own title and body where markers stood gives the bytes the whole layout would.
    struct Layout: Sendable {
        private enum Part: Sendable {
            case bytes([UInt8])
            case title(escaped: Bool)
            case body(escaped: Bool)
        }

        private let model: PageModels.Layout
        /// Nil when the markers could not be told from the layout's values: each page is written whole.
        private let parts: [Part]?

        /// Private-use characters, which no escaping changes, with a `&` that HTML escaping does.
        private static let marks = (title: "\u{E000}&title\u{E000}", body: "\u{E000}&body\u{E000}")

        /// From the layout's values; the model's page title and body are not used.
        init(_ layout: PageModels.Layout) {
            model = layout
            parts = Self.parts(layout)
        }

        private static func parts(_ layout: PageModels.Layout) -> [Part]? {
            let values = [layout.language, layout.feedTitle, layout.siteTitle, layout.root, layout.attentionCount ?? "", layout.dataAsOf]
                + Array(layout.labels.keys) + Array(layout.labels.values)
            guard !values.contains(where: { $0.unicodeScalars.contains("\u{E000}") }) else { return nil }
            var probe = layout
            (probe.pageTitle, probe.body) = (marks.title, marks.body)
            var out = PageBytes()
            GeneratedPages.layout(probe, into: &out)
            let bytes = [UInt8](out.take())
            let found: [([UInt8], Part)] = [
                (Array(marks.title.utf8), .title(escaped: false)), (Array(XMLEscaper.escape(marks.title).utf8), .title(escaped: true)),
                (Array(marks.body.utf8), .body(escaped: false)), (Array(XMLEscaper.escape(marks.body).utf8), .body(escaped: true)),
            ]
            var parts: [Part] = []
            var (start, index) = (0, 0)
            while index < bytes.count {
                if bytes[index] == 0xEE, let (mark, part) = found.first(where: { bytes[index...].starts(with: $0.0) }) {
                    parts.append(.bytes(Array(bytes[start..<index])))
                    parts.append(part)
                    index += mark.count
                    start = index
                } else {
                    index += 1
                }
            }
            parts.append(.bytes(Array(bytes[start...])))
            return parts
        }

        /// The page: `body` is cmark-gfm's HTML, as it made it (from valid UTF-8, so valid UTF-8).
        func html(title: String, body: Data) -> Data {
            guard let parts else {
                var page = model
                (page.pageTitle, page.body) = (title, String(decoding: body, as: UTF8.self))
                var out = PageBytes()
                GeneratedPages.layout(page, into: &out)
                return out.take()
            }
            var html = Data(capacity: body.count + 1024)
            for part in parts {
                switch part {
                case .bytes(let bytes): html.append(contentsOf: bytes)
                case .title(let escaped):
                    var title = escaped ? XMLEscaper.escape(title) : title
                    title.withUTF8 { html.append($0) }
                case .body(false): html.append(body)
                case .body(true):
                    var body = XMLEscaper.escape(String(decoding: body, as: UTF8.self))
                    body.withUTF8 { html.append($0) }
                }
            }
            return html
        }
    }
}
