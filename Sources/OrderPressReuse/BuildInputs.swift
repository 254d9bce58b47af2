import Crypto
import Foundation
import OrderPressConfig
import OrderPressDiff
import OrderPressFetch
import OrderPressOutput
import OrderPressSupport

/// Everything a build's files depend on, as one digest: the sources' bytes and what fetching them
/// said, the configuration file, the templates and the program itself. When a rerun's digest is
/// the last successful build's, and the clock is still on the same side of the moment the rates
/// turn stale (`validity`), every file would come out byte for byte as it is: the build stops there and writes nothing.
package struct BuildInputs: Sendable {
    package let fingerprint: String

    package init(_ downloaded: DownloadedSources, configuration: Configuration, templates: String) {
        var hash = SHA256()
        hash.addProgram()
        hash.add(templates)
        // Unreadable is a value too: the build that follows fails on it anyway.
        hash.update(data: (try? BoundedFile.read(configuration.file.path, limit: ConfigurationLoader.maxBytes)) ?? Data())
        hash.add(downloaded.fingerprint)
        for warning in downloaded.warnings {
            hash.add(warning.row.map(String.init) ?? "")
            hash.add(warning.message)
        }
        if case .table(let rates)? = downloaded.rates {
            hash.add(rates.fromCache ? "rates from cache" : "rates fresh")
        }
        fingerprint = Hex.lowercase(hash.finalize())
    }

    /// The stretch of time in which the pages stay as a build at `now` makes them: they depend on the
    /// clock only through the rates' staleness flag, which flips when the rates turn stale. Fresh rates
    /// hold until that moment; stale ones from just after it on, so that a clock set back (an NTP fix, a
    /// re-pinned `SOURCE_DATE_EPOCH`) makes them fresh again, as a build from scratch would show them.
    /// Both ends nil when nothing in the pages depends on the clock (no rates, no age limit, no as-of time).
    package static func validity(rates: RateTable?, configuration: Configuration, now: Date) -> (from: Date?, until: Date?) {
        guard let asOf = rates?.asOf, let hours = configuration.rates?.maxAgeHours else { return (nil, nil) }
        // `SiteContext.ratesStale`: stale once more than `hours` have passed since the rates' as-of time.
        let stale = asOf.addingTimeInterval(Double(hours) * 3600)
        return now <= stale ? (nil, stale) : (stale, nil)
    }

    /// Whether a build at `now` would make the pages the build recorded in `last` made.
    static func holds(_ last: LastBuild, at now: Date) -> Bool {
        (last.validUntil.map { now <= $0 } ?? true) && (last.validFrom.map { now > $0 } ?? true)
    }

    /// Whether the last successful build (`last`, as the state records it) was made from these very
    /// inputs and its pages still hold at `now`. With `strict`, a last build that rejected rows does not
    /// stand for this one, which must refuse them.
    package func match(_ last: LastBuild, at now: Date, strict: Bool) -> Bool {
        last.fingerprint == fingerprint && Self.holds(last, at: now) && !(strict && last.rejected > 0)
    }

    /// How many files the last build published, when every one is still there as published and was
    /// built from these inputs (`PublishedFiles.intactCount(builtFrom:)`); nil when the site must be built.
    package func intactFiles(in published: some PublishedFiles) -> Int? {
        published.intactCount(builtFrom: fingerprint)
    }
}
