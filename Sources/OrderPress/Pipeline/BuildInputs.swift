import Crypto
import Foundation

/// Everything a build's files depend on, as one digest: the sources' bytes and what fetching them
/// said, the configuration file, the templates and the program itself. When a rerun's digest is
/// the last successful build's, and the clock has not reached the moment the rates turn stale,
/// every file would come out byte for byte as it is: the build stops there and writes nothing.
struct BuildInputs: Sendable {
    let fingerprint: String

    init(_ downloaded: DownloadedSources, configuration: Configuration, templates: String) {
        var hash = SHA256()
        func add(_ text: String) {
            hash.update(data: Data(text.utf8))
            hash.update(data: [0])
        }
        add(Version.current)
        add(Version.executableStamp)
        add(templates)
        // Unreadable is a value too: the build that follows fails on it anyway.
        hash.update(data: (try? BoundedFile.read(configuration.file.path, limit: ConfigurationLoader.maxBytes)) ?? Data())
        add(downloaded.fingerprint)
        for warning in downloaded.warnings {
            add(warning.row.map(String.init) ?? "")
            add(warning.message)
        }
        if case .table(let rates)? = downloaded.rates {
            add(rates.fromCache ? "rates from cache" : "rates fresh")
        }
        fingerprint = Hex.lowercase(hash.finalize())
    }

    /// The moment pages would change with no input changing: when the rates turn stale. Nil when
    /// nothing in the pages depends on the clock (no rates, no age limit, or stale already).
    static func validUntil(rates: RateTable?, configuration: Configuration, now: Date) -> Date? {
        guard let asOf = rates?.asOf, let hours = configuration.rates?.maxAgeHours else { return nil }
        let stale = asOf.addingTimeInterval(Double(hours) * 3600)
        return stale >= now ? stale : nil
    }
}
