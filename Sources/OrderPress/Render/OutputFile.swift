import Foundation

/// A file to publish: its path relative to an output folder, its bytes, and optionally a key.
public struct OutputFile: Sendable, Equatable {
    public var path: String
    public var contents: Data
    /// A hash of the inputs the file was made from, computed by render and kept in the publish manifest:
    /// a later build whose key for the file is the same need not render it again.
    public var key: String?

    public init(path: String, contents: Data, key: String? = nil) {
        self.path = path
        self.contents = contents
        self.key = key
    }
}

/// The two trees a build produces: the Markdown for git, and the HTML site.
public struct RenderedSite: Sendable, Equatable {
    public var markdown: [OutputFile]
    public var site: [OutputFile]
}
