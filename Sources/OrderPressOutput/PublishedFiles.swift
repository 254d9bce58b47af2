/// What the last build published, as the reuse layer asks it (and nothing else does): the key a file
/// was made from and the pieces of a file made in pieces, each only while the file is still there as
/// published, and whether the whole site is (the unchanged rerun). `PublishSession` answers from the
/// manifest; a build with nothing published answers nil.
package protocol PublishedFiles: Sendable {
    /// The key the file was last published with (`OutputFile.reuseKey`), with where the file is in the last
    /// build's record for `PageSink.keep(_:in:)` to name it by, if it is still there as published.
    func published(_ path: String, in tree: OutputTree) -> PublishedRecord?
    /// The pieces the file was last published with (`OutputFile.pieces`) and a way to read its bytes,
    /// if it is still there as published.
    func pieces(of path: String, in tree: OutputTree) -> PublishedPieces?
    /// How many files the last build published, if every one of them is still there as published and
    /// they were built from inputs with the fingerprint `inputs` (`BuildInputs`); nil otherwise.
    func intactCount(builtFrom inputs: String?) -> Int?
}

/// A file of the last build's record, still there as published: the key it was made with, and its place in the record.
package struct PublishedRecord: Sendable {
    package var reuseKey: String?
    /// Where the record lists it; -1 when the record has no such places (the file is then named by its path).
    package var index: Int

    package init(reuseKey: String?, index: Int) {
        self.reuseKey = reuseKey
        self.index = index
    }
}

/// No last build: every file is made.
package struct NothingPublished: PublishedFiles {
    package func published(_ path: String, in tree: OutputTree) -> PublishedRecord? { nil }
    package func pieces(of path: String, in tree: OutputTree) -> PublishedPieces? { nil }
    package func intactCount(builtFrom inputs: String?) -> Int? { nil }
    package init() {
    }
}
