/// What a `NewsItem` is about, and the words `[notify] print` lists kinds by.
public enum NewsKind: String, Sendable, Codable, CaseIterable {
    case deleted, rejected, failing, recovered, blocked

    /// The `[notify] print` kind that chooses it: a recovery is said wherever its failure was.
    public var setting: NewsKind { self == .recovered ? .failing : self }
}
