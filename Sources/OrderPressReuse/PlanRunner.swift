import Foundation
import OrderPressOutput
import OrderPressRender

/// Runs render's plan against the last build's record: turns each file's declaration (`Dependency`)
/// into a key (`PageKeys`), asks the record for the key the published file was made with, and either
/// keeps the file or makes it. The one place a build decides not to make a file.
///
/// A kept file is valid when its key covers everything it is made from (see `Dependency`) and the
/// record answers only for a file still there as published (`PublishedFiles`). A file that declares
/// nothing is always made.
struct PlanRunner<Record: PublishedFiles>: Sendable {
    let keys: PageKeys
    package let record: Record

    init(keys: PageKeys, record: Record) {
        self.keys = keys
        self.record = record
    }

    /// The file made, or nil when the published one is kept in every tree it goes into.
    func run(_ file: PlannedFile) -> OutputFile? {
        switch made(file) {
        case .made(let file): file
        case .kept: nil
        }
    }

    /// A file made, or kept as published in every tree it goes into (where the record lists it, by tree).
    enum Made {
        case made(OutputFile)
        case kept([OutputTree: Int])
    }

    /// `run(_:)`, with where the record lists a kept file.
    func made(_ file: PlannedFile) -> Made {
        guard let dependency = file.dependsOn else { return .made(OutputFile(path: file.path, contents: file.make())) }
        let key = keys.key(of: dependency)
        var kept: [OutputTree: Int] = [:]
        for tree in file.trees {
            guard let published = record.published(file.path, in: tree), published.reuseKey == key else {
                return .made(OutputFile(path: file.path, contents: file.make(), reuseKey: key))
            }
            kept[tree] = published.index
        }
        return .kept(kept)
    }

    /// A page's Markdown file and HTML file, each nil when the published one is kept.
    struct MadePage {
        var markdownPath: String
        var htmlPath: String
        var markdown: OutputFile?
        var html: OutputFile?
        /// Where the record lists a kept file (-1 when it does not say); unused for a file made.
        var markdownIndex = -1
        var htmlIndex = -1
    }

    /// A page at `path` (without extension): its Markdown made by `markdown` unless its declaration's key
    /// is the published one's, its HTML made by `html` from the Markdown unless the HTML's key
    /// (`PageKeys.html(ofMarkdown:page:title:)`) is. The Markdown is made whenever the HTML must be.
    func run(
        page path: String, title: String, dependsOn dependency: Dependency?, markdown: () -> Data, html: (Data) -> Data
    ) -> MadePage {
        let markdownPath = "\(path).md"
        let htmlPath = "\(path).html"
        // For a page that declares its inputs, their key stands for the Markdown in the HTML's key.
        // Not `dependency.map(keys.key(of:))`: that partial application copied `keys` (a score of
        // arrays and dictionaries retained, then released) for each of a site's 24,000 files, on both
        // cores at once (docs/benchmarks.md).
        let declared: String? = if let dependency { keys.key(of: dependency) } else { nil }
        let declaredHTML: String? = if let declared { keys.html(ofMarkdownKey: declared, page: path, title: title) } else { nil }
        let publishedHTML = record.published(htmlPath, in: .site)
        if let declared, let publishedHTML, publishedHTML.reuseKey == declaredHTML,
            let publishedMarkdown = record.published(markdownPath, in: .markdown), publishedMarkdown.reuseKey == declared
        {
            return MadePage(
                markdownPath: markdownPath, htmlPath: htmlPath, markdown: nil, html: nil, markdownIndex: publishedMarkdown.index,
                htmlIndex: publishedHTML.index)
        }
        let markdown = markdown()
        let htmlKey = declaredHTML ?? keys.html(ofMarkdown: markdown, page: path, title: title)
        let markdownFile = OutputFile(path: markdownPath, contents: markdown, reuseKey: declared)
        if let publishedHTML, publishedHTML.reuseKey == htmlKey {
            return MadePage(markdownPath: markdownPath, htmlPath: htmlPath, markdown: markdownFile, html: nil, htmlIndex: publishedHTML.index)
        }
        return MadePage(
            markdownPath: markdownPath, htmlPath: htmlPath, markdown: markdownFile, html: OutputFile(path: htmlPath, contents: html(markdown), reuseKey: htmlKey))
    }

    /// The pieces of a file made in pieces as last published, for `PieceAssembler` to copy from.
    func publishedPieces(of path: String, in tree: OutputTree) -> PublishedPieces? {
        record.pieces(of: path, in: tree)
    }
}
