/// The two folders a build publishes into: the Markdown (for git) and the HTML site.
public enum OutputTree: String, Sendable, CaseIterable {
    case markdown, site
}
