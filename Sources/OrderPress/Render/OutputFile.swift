import Foundation

/// A file to publish: its path relative to an output folder, and its bytes.
public struct OutputFile: Sendable, Equatable {
    public var path: String
    public var contents: Data

    public init(path: String, contents: Data) {
        self.path = path
        self.contents = contents
    }
}

/// The two trees a build produces: the Markdown for git, and the HTML site.
public struct RenderedSite: Sendable, Equatable {
    public var markdown: [OutputFile]
    public var site: [OutputFile]
}
