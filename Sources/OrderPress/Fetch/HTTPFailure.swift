/// A request that got no HTTP answer at all.
enum HTTPFailure: Error, Equatable {
    /// Nothing came back within the timeout.
    case timedOut
    /// The connection could not be made or broke off; `reason` is a few words, never a URL or a header.
    case unreachable(reason: String)
}
