/// A request that got no usable HTTP answer.
package enum HTTPFailure: Error, Equatable {
    /// Nothing came back within the timeout.
    case timedOut
    /// The connection could not be made or broke off; `reason` is a few words, never a URL or a header.
    case unreachable(reason: String)
    /// The body grew past `limit` bytes once decompressed, so the transfer was stopped.
    case tooLarge(limit: Int)
    /// The redirects did not end within `limit` hops, or led to an address that is not http(s).
    case badRedirect(tooMany: Bool)

    /// Worth asking again: the network may recover; a server that sends too much or loops will not.
    var isTransient: Bool {
        switch self {
        case .timedOut, .unreachable: return true
        case .tooLarge, .badRedirect: return false
        }
    }
}
