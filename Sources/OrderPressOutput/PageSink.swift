import Foundation
import OrderPressSupport

/// Where the renderer hands files as it makes them, batch by batch: the publish session in a
/// build, a collector in tests. It only receives files: what the last build published is asked of
/// a `PublishedFiles`, by the reuse layer alone. Every method is called from several threads at once:
/// the pages' batches and the large whole-site files are published side by side.
package protocol PageSink: Sendable {
    /// A file too large to hold whole: `make` writes it front to back into the stream given, and
    /// returns its pieces. Published as `publish` would, from any thread.
    func publishStreamed(_ path: String, in tree: OutputTree, make: (ByteStream) -> FilePieces?) throws(OutputError)
    func publish(_ files: [OutputFile], in tree: OutputTree) throws(OutputError)
    /// Files left as published: the reuse layer found they would come out the same (`PlanRunner`). Each
    /// is named by its path and its place in the record (`PublishedRecord.index`; -1 when unknown).
    func keep(_ kept: [KeptFile], in tree: OutputTree)
}

/// A file left as published: its path, and where the last build's record lists it (-1: unknown).
package struct KeptFile: Sendable {
    package var path: String
    package var index: Int

    package init(path: String, index: Int) {
        self.path = path
        self.index = index
    }
}

extension PageSink {
    func publishStreamed(_ path: String, in tree: OutputTree, make: (ByteStream) -> FilePieces?) throws(OutputError) {
        try publishInMemory(path, in: tree, make: make)
    }

    /// Made in memory and published whole.
    package func publishInMemory(_ path: String, in tree: OutputTree, make: (ByteStream) -> FilePieces?) throws(OutputError) {
        let stream = MemoryStream()
        let pieces = make(stream)
        try publish([OutputFile(path: path, contents: stream.take(), pieces: pieces)], in: tree)
    }
}

/// Collects every file in memory, as `SiteRenderer.render` returns them.
final class CollectedSite: PageSink, @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`:
    private var markdown: [OutputFile] = []
    private var html: [OutputFile] = []

    func publish(_ files: [OutputFile], in tree: OutputTree) {
        lock.withLock {
            switch tree {
            case .markdown: markdown += files
            case .site: html += files
            }
        }
    }

    func keep(_ kept: [KeptFile], in tree: OutputTree) {}

    var site: RenderedSite {
        lock.withLock { RenderedSite(markdown: markdown.sorted { $0.path < $1.path }, site: html.sorted { $0.path < $1.path }) }
    }
}
