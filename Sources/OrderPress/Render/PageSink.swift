/// Where the renderer hands files as it makes them, batch by batch: the publish session in a
/// build, a collector in tests. Called from one thread at a time.
protocol PageSink: Sendable {
    /// The key the file was last published with (`OutputFile.key`), if it is still there as published.
    func publishedKey(of path: String, in tree: OutputTree) -> String?
    func publish(_ files: [OutputFile], in tree: OutputTree) throws(OutputError)
    /// A file left as published: its key showed it would come out the same.
    func keep(_ path: String, in tree: OutputTree)
}

/// The two folders a build writes.
public enum OutputTree: Sendable {
    /// The Markdown, for git.
    case markdown
    /// The HTML site.
    case site
}

/// Collects every file in memory, as `SiteRenderer.render` returns them.
final class CollectedSite: PageSink, @unchecked Sendable {
    private var markdown: [OutputFile] = []
    private var html: [OutputFile] = []

    func publishedKey(of path: String, in tree: OutputTree) -> String? { nil }

    func publish(_ files: [OutputFile], in tree: OutputTree) {
        switch tree {
        case .markdown: markdown += files
        case .site: html += files
        }
    }

    func keep(_ path: String, in tree: OutputTree) {}

    var site: RenderedSite {
        RenderedSite(markdown: markdown.sorted { $0.path < $1.path }, site: html.sorted { $0.path < $1.path })
    }
}
