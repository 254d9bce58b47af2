/// Where the renderer hands files as it makes them, batch by batch: the publish session in a
/// build, a collector in tests. `publishedKey` is asked from several threads at once; `publish`
/// and `keep` are called from one.
protocol PageSink: Sendable {
    /// The key the file was last published with (`OutputFile.key`), if it is still there as published.
    func publishedKey(of path: String, in tree: Tree) -> String?
    /// The pieces the file was last published with (`OutputFile.pieces`) and its bytes, if it is
    /// still there as published.
    func publishedPieces(of path: String, in tree: Tree) -> PublishedPieces?
    func publish(_ files: [OutputFile], in tree: Tree) throws(OutputError)
    /// A file left as published: its key showed it would come out the same.
    func keep(_ path: String, in tree: Tree)
}

extension PageSink {
    func publishedPieces(of path: String, in tree: Tree) -> PublishedPieces? { nil }
}

/// Collects every file in memory, as `SiteRenderer.render` returns them.
final class CollectedSite: PageSink, @unchecked Sendable {
    private var markdown: [OutputFile] = []
    private var html: [OutputFile] = []

    func publishedKey(of path: String, in tree: Tree) -> String? { nil }

    func publish(_ files: [OutputFile], in tree: Tree) {
        switch tree {
        case .markdown: markdown += files
        case .site: html += files
        }
    }

    func keep(_ path: String, in tree: Tree) {}

    var site: RenderedSite {
        RenderedSite(markdown: markdown.sorted { $0.path < $1.path }, site: html.sorted { $0.path < $1.path })
    }
}
