import Foundation

/// What publishing will do: the files whose bytes change, the ones left alone, and the ones removed.
public struct PublishPlan: Sendable {
    public struct Write: Sendable {
        public var url: URL
        /// The configured folder the file lives in: nothing below it is reached through a link.
        public var root: URL
        public var contents: Data
    }

    public struct Removal: Sendable {
        public var url: URL
        public var root: URL
    }

    public var writes: [Write]
    public var unchanged: Int
    /// Files published by an earlier build that belong to no page any more.
    public var removals: [Removal]
    /// The list of published files, kept in the state folder, that tells later runs what is theirs to remove.
    public var manifest: Manifest

    public var isEmpty: Bool { writes.isEmpty && removals.isEmpty }
}
