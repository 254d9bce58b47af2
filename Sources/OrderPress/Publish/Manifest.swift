/// The files a build published, relative to the Markdown and site folders.
public struct Manifest: Codable, Sendable, Equatable {
    public var markdown: [String]
    public var site: [String]

    static let fileName = "published.json"
}
