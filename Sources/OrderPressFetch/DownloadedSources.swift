import Foundation
import OrderPressConfig
import OrderPressSupport

/// What the download half of the fetch step obtained: each source's bytes, not yet parsed, and a
/// fingerprint of all of them, so that a run whose sources did not change can stop before parsing.
/// `Fetcher.parse` turns it into `FetchedData`; pass it with `consume` so that the bytes are freed
/// as soon as they are parsed.
public struct DownloadedSources: Sendable {
    enum Sheet: Sendable {
        /// A local file, parsed by `Fetcher.parse`.
        case file(Data, format: SheetParser.Format, settings: Configuration.SourceSettings)
        /// A URL source is parsed as it is downloaded: its pages must be counted to know when to stop,
        /// and a cached copy that does not parse sends the fetcher back to the source.
        case table(SourceTable)
    }

    package enum Rates: Sendable {
        case file(Data, format: Configuration.RateFormat)
        /// A feed, parsed as it is downloaded: a body that does not parse falls back on the cached copy.
        case table(RateTable)
    }

    var orders: Sheet
    var groups: Sheet?
    var payments: Sheet? = nil
    package var rates: Rates?
    /// Hex SHA-256 over each source's name, format and bytes (every page of a paged sheet), in the
    /// order orders, groups, payments, rates: equal fingerprints mean the same bytes were read.
    public var fingerprint: String
    /// Problems that did not stop the download (a cache that could not be written, a feed replaced by its copy).
    package var warnings: [DataWarning]
    /// HTTP requests sent, retries included; cached copies cost none.
    public var requests: Int
}
