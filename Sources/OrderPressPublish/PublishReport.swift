import Foundation

/// What publishing did (or, in a dry run, would do): the files written, how many were left alone,
/// and the files of pages that no longer exist, removed.
public struct PublishReport: Sendable {
    public var written: [URL]
    public var unchanged: Int
    public var removed: [URL]

    public var isEmpty: Bool { written.isEmpty && removed.isEmpty }
}
