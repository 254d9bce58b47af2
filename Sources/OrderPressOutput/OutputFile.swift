import Foundation

/// A file to publish: its path relative to an output folder, its bytes, and optionally its reuse key.
public struct OutputFile: Sendable, Equatable {
    public var path: String
    public var contents: Data
    /// A digest of the inputs the file was made from, when making it is dear enough to skip (a page's
    /// HTML): the publish manifest keeps it, and a later build with the same key keeps the file.
    public var reuseKey: String?
    /// For a file made of pieces (`summary.json`, `orders.csv`): how it divides, so that the next
    /// build can copy the pieces it would make the same.
    public var pieces: FilePieces?

    public init(path: String, contents: Data, reuseKey: String? = nil, pieces: FilePieces? = nil) {
        self.path = path
        self.contents = contents
        self.reuseKey = reuseKey
        self.pieces = pieces
    }
}

/// The two trees a build produces: the Markdown for git, and the HTML site.
public struct RenderedSite: Sendable, Equatable {
    public var markdown: [OutputFile]
    public var site: [OutputFile]
}
