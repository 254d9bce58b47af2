import Foundation
import OrderPressConfig
import OrderPressSupport

/// Reads the orders, groups, payments and rates sources that the configuration names: local files, or
/// SheetDB-compatible APIs and rates feeds over HTTP, keeping the last good copy of each in the state folder.
public struct Fetcher: Sendable {
    public struct Options: Sendable {
        /// Use only the cached copies of URL sources; send no request.
        public var offline = false
        /// Keep a copy of each fetched URL source (off for `--dry-run`, which writes nothing).
        public var saveCache = true

        public init(offline: Bool = false, saveCache: Bool = true) {
            self.offline = offline
            self.saveCache = saveCache
        }
    }

    public var configuration: Configuration
    package var now: Date
    package var options: Options
    package var downloader: Downloader
    var cache: SourceCache
    /// Bearer tokens by source name, read from the environment up front so that a missing one
    /// is a configuration error before any request.
    private var tokens: [String: String]
    /// The credentials of each Google Sheet source, by source name, read up front like the tokens.
    private var google: [String: GoogleCredentials]

    /// What a Google Sheet source reads with: an API key, or a service account's key (its token is asked for once per run).
    enum GoogleCredentials: Sendable {
        case apiKey(String)
        case serviceAccount(GoogleServiceAccount, variable: String)
    }

    /// Throws when a `token_env` of a URL source names an unset or empty variable (not under `--offline`,
    /// which sends nothing).
    package init(
        configuration: Configuration, clock: Clock, environment: [String: String], options: Options,
        transport: any HTTPTransport, retryPolicy: RetryPolicy
    ) throws(ConfigurationError) {
        self.configuration = configuration
        now = clock.now
        self.options = options
        downloader = Downloader(transport: transport, policy: retryPolicy)
        cache = SourceCache(state: configuration.output.state)
        tokens = options.offline ? [:] : try Self.tokens(configuration, environment)
        google = options.offline ? [:] : try Self.googleCredentials(configuration, environment)
    }

    /// Download and parse: every source read into tables.
    public func fetch() async throws(SourceError) -> FetchedData {
        try parse(try await download())
    }

    /// Obtains every source's bytes — a file's, or a URL source's pages or cached copy as `sheet` says —
    /// with their fingerprint; files are left unparsed.
    public func download() async throws(SourceError) -> DownloadedSources {
        var requests = 0
        var warnings: [DataWarning] = []
        var fingerprint = SourceFingerprint()
        let columns = configuration.orderColumns
        // A column that is secret and nothing else is masked in the cache; one also mapped as a field is published anyway.
        let fields = Set(columns.mapped).subtracting(columns.secret)
        var sheets: [CachedColumns] = [(configuration.orders, fields, Set(columns.secret).subtracting(fields))]
        if let groups = configuration.groups { sheets.append((groups, Set(configuration.groupColumns.mapped), Set<String>())) }
        if let payments = configuration.payments { sheets.append((payments, Set(configuration.paymentColumns.mapped), Set<String>())) }
        // Google Sheet tabs first, one request per spreadsheet for all of them (`values:batchGet`).
        let tabs = try await googleTabs(sheets, requests: &requests, warnings: &warnings)
        let orders = try await sheet(
            configuration.orders, kept: fields, masked: Set(columns.secret).subtracting(fields), google: tabs,
            fingerprint: &fingerprint, requests: &requests, warnings: &warnings)
        var groups: DownloadedSources.Sheet?
        if let settings = configuration.groups {
            groups = try await sheet(
                settings, kept: Set(configuration.groupColumns.mapped), masked: [], google: tabs, fingerprint: &fingerprint,
                requests: &requests, warnings: &warnings)
        }
        // After the groups and before the rates in the fingerprint: a site without payments keeps its fingerprint.
        var payments: DownloadedSources.Sheet?
        if let settings = configuration.payments {
            payments = try await sheet(
                settings, kept: Set(configuration.paymentColumns.mapped), masked: [], google: tabs, fingerprint: &fingerprint,
                requests: &requests, warnings: &warnings)
        }
        var rates: DownloadedSources.Rates?
        if let settings = configuration.rates {
            rates = try await self.rates(settings, fingerprint: &fingerprint, requests: &requests, warnings: &warnings)
        }
        return DownloadedSources(
            orders: orders, groups: groups, payments: payments, rates: rates, fingerprint: fingerprint.finalize(), warnings: warnings,
            requests: requests)
    }

    /// Parses what `download` left unparsed (local files). Errors are the same `SourceError`s a
    /// combined fetch gives.
    public func parse(_ downloaded: consuming DownloadedSources) throws(SourceError) -> FetchedData {
        var warnings = downloaded.warnings
        let fingerprint = downloaded.fingerprint
        let requests = downloaded.requests
        let ordersSheet = downloaded.orders
        let groupsSheet = downloaded.groups
        let paymentsSheet = downloaded.payments
        let ratesSource = downloaded.rates
        _ = consume downloaded
        let orders = try table(ordersSheet)
        _ = consume ordersSheet  // the orders' bytes can go before the groups are parsed
        let groups = try groupsSheet.map { sheet throws(SourceError) in try table(sheet) }
        let payments = try paymentsSheet.map { sheet throws(SourceError) in try table(sheet) }
        var rates: RateTable?
        switch ratesSource {
        case .file(let body, let format):
            let outcome = try RatesParser.parse(body, format: format)
            if let warning = outcome.warning { warnings.append(warning) }
            rates = outcome.table
        case .table(let table):
            rates = table
        case nil:
            rates = nil
        }
        return FetchedData(
            orders: orders, groups: groups, payments: payments, rates: rates, warnings: warnings, requests: requests, fingerprint: fingerprint)
    }

    private func table(_ sheet: DownloadedSources.Sheet) throws(SourceError) -> SourceTable {
        switch sheet {
        case .file(let body, let format, let settings):
            return try bounded(try SheetParser.parse(body, format: format, source: settings.name), settings)
        case .table(let table):
            return table
        }
    }

    /// A sheet: a file's bytes, or from its API page by page, or from the cached copy when that may stand in.
    private func sheet(
        _ source: Configuration.SourceSettings, kept: Set<String>, masked: Set<String>, google: [String: GoogleTab] = [:],
        fingerprint: inout SourceFingerprint, requests: inout Int, warnings: inout [DataWarning]
    ) async throws(SourceError) -> DownloadedSources.Sheet {
        switch source.location {
        case .googleSheet:
            guard let tab = google[source.name] else { preconditionFailure("every Google Sheet source is read by googleTabs") }
            if let pages = tab.pages {
                fingerprint.add(source: source.name, format: "google", pages: pages)
            } else {
                fingerprint.add(source: source.name, format: "json", parts: [tab.body ?? Data()])
            }
            return .table(tab.table)
        case .path(let file):
            guard let format = SheetParser.Format(rawValue: file.pathExtension.lowercased()) else {
                throw SourceError(source: source.name, message: "'\(file.lastPathComponent)' must be a .json or .csv file")
            }
            let body = try read(file, source, limit: source.name == configuration.orders.name ? Self.maxOrdersFileBytes : BoundedFile.maxBytes)
            fingerprint.add(source: source.name, format: format.rawValue, parts: [body])
            return .file(body, format: format, settings: source)
        case .url(let url):
            if let copy = try cachedSheet(source, location: URLRedactor.display(url), display: SourceDescription(url).description) {
                if let pages = copy.pages {
                    fingerprint.add(source: source.name, format: "sheetdb", pages: pages)
                } else {
                    fingerprint.add(source: source.name, format: "json", parts: [copy.body])
                }
                return .table(copy.table)
            }
            let (rows, pages, keyOrder) = try await SheetPager(downloader: downloader).rows(url, for: source, token: tokens[source.name], requests: &requests)
            fingerprint.add(source: source.name, format: "sheetdb", pages: pages)
            var table = try SheetParser.table(rows: rows, source: source.name)
            table.sheetOrder = keyOrder
            save(
                CachedSheet.body(table, kept: kept, masked: masked), source, location: URLRedactor.display(url), pages: pages.digest,
                warnings: &warnings)
            return .table(table)
        }
    }

    /// The cached copy of a sheet source when it may stand in for asking (see `reusableCopy`) and parses;
    /// nil when the source must be asked. Under `--offline` a damaged copy is an error.
    private func cachedSheet(
        _ source: Configuration.SourceSettings, location: String, display: String
    ) throws(SourceError) -> (table: SourceTable, body: Data, pages: SourceFingerprint.Pages.Digest?)? {
        guard let copy = try reusableCopy(source, location: location, display: display) else { return nil }
        do {
            return (try bounded(try SheetParser.parseJSON(copy.body, source: source.name), source), copy.body, copy.pages)
        } catch where options.offline {
            throw SourceError(
                source: source.name,
                message: "the cached copy of \(source.name) in the state folder \(error.message); run once without --offline to replace it")
        } catch {
            return nil  // A damaged copy: ask the source instead.
        }
    }

    /// Which columns of a sheet source its cached copy keeps, and which it masks.
    private typealias CachedColumns = (source: Configuration.SourceSettings, kept: Set<String>, masked: Set<String>)

    /// A Google Sheet tab as read this run, from the API or the cached copy, with what fingerprints it: the
    /// digest of the answer it came from (kept in the copy's meta, so that a copy fingerprints as its fetch
    /// did), or the copy's own bytes when its meta has no digest.
    struct GoogleTab: Sendable {
        package var table: SourceTable
        package var pages: SourceFingerprint.Pages.Digest?
        package var body: Data?
    }

    /// Every Google Sheet source of `sheets`, by source name: from its cached copy where that may stand in,
    /// the rest asked for with one request per spreadsheet (and credentials), a service account's access
    /// token asked for once per key and run, and held in memory only.
    private func googleTabs(
        _ sheets: [CachedColumns], requests: inout Int, warnings: inout [DataWarning]
    ) async throws(SourceError) -> [String: GoogleTab] {
        var tabs: [String: GoogleTab] = [:]
        var pending: [(sheet: CachedColumns, tab: GoogleSheetsReader.Tab)] = []
        for sheet in sheets {
            guard case .googleSheet(let google) = sheet.source.location else { continue }
            if let copy = try cachedSheet(sheet.source, location: google.cacheLocation, display: google.display) {
                tabs[sheet.source.name] = GoogleTab(table: copy.table, pages: copy.pages, body: copy.pages == nil ? copy.body : nil)
            } else {
                pending.append((sheet, GoogleSheetsReader.Tab(source: sheet.source, sheet: google)))
            }
        }
        let reader = GoogleSheetsReader(downloader: downloader)
        var accessTokens: [String: String] = [:]  // by the variable naming the key file
        var done = Set<Int>()
        for (index, first) in pending.enumerated() where !done.contains(index) {
            // The tabs read in one request: same API, spreadsheet and credentials.
            let group = pending.indices.filter { other in
                !done.contains(other) && pending[other].tab.sheet.apiURL == first.tab.sheet.apiURL
                    && pending[other].tab.sheet.spreadsheetID == first.tab.sheet.spreadsheetID
                    && pending[other].tab.sheet.credentials == first.tab.sheet.credentials
            }
            done.formUnion(group)
            let credential: GoogleSheetsReader.Credential
            switch google[first.tab.source.name] {
            case .apiKey(let key):
                credential = .apiKey(key)
            case .serviceAccount(let account, let variable):
                if accessTokens[variable] == nil {
                    accessTokens[variable] = try await account.accessToken(
                        downloader, now: now, for: first.tab.source, variable: variable, requests: &requests)
                }
                credential = .accessToken(accessTokens[variable]!, clientEmail: account.clientEmail)
            case nil:
                preconditionFailure("a Google Sheet source's credentials are read with the fetcher, or it is offline and cached")
            }
            let (tables, body) = try await reader.read(group.map { pending[$0].tab }, credential: credential, requests: &requests)
            var answer = SourceFingerprint.Pages()
            answer.add(body)
            for (table, position) in zip(tables, group) {
                let sheet = pending[position].sheet
                let checked = try bounded(table, sheet.source)
                tabs[sheet.source.name] = GoogleTab(table: checked, pages: answer.digest)
                save(
                    CachedSheet.body(checked, kept: sheet.kept, masked: sheet.masked), sheet.source,
                    location: pending[position].tab.sheet.cacheLocation, pages: answer.digest, warnings: &warnings)
            }
        }
        return tabs
    }

    /// A sheet longer than `max_rows` is an error, wherever it came from.
    private func bounded(_ table: SourceTable, _ source: Configuration.SourceSettings) throws(SourceError) -> SourceTable {
        guard table.dataRowCount > source.maxRows else { return table }
        throw SourceError(
            source: source.name, message: "has more than \(source.maxRows) rows; raise \(source.name).max_rows if the sheet really is that long")
    }

    /// The rates: a file's bytes, or a feed's table. None to be had (neither fresh nor cached) stops the
    /// build: a site whose every conversion shows n/a is not worth publishing in place of the last good one.
    private func rates(
        _ settings: Configuration.RateSettings, fingerprint: inout SourceFingerprint, requests: inout Int, warnings: inout [DataWarning]
    ) async throws(SourceError) -> DownloadedSources.Rates {
        switch settings.source.location {
        case .path(let file):
            let body = try read(file, settings.source)
            fingerprint.add(source: settings.source.name, format: settings.format.rawValue, parts: [body])
            return .file(body, format: settings.format)
        case .url(let url):
            switch try await feedRates(url, settings, requests: &requests, warnings: &warnings) {
            case .success(let (table, body)):
                fingerprint.add(source: settings.source.name, format: settings.format.rawValue, parts: [body])
                return .table(table)
            case .failure(let error) where options.offline:
                throw error
            case .failure(let error):
                throw SourceError(source: error.source, message: "\(error.message); no earlier rates are cached, so nothing is published")
            }
        case .googleSheet:
            throw SourceError(source: settings.source.name, message: "rates come from a feed's url or a file's path, not a Google Sheet")
        }
    }

    /// Rates from a feed, with the body they were read from: the fresh (or `--offline`) copy, else the
    /// feed, else the last good copy marked `fromCache`. Throws only under `--offline` without a copy;
    /// other failures are returned.
    private func feedRates(
        _ url: URL, _ settings: Configuration.RateSettings, requests: inout Int, warnings: inout [DataWarning]
    ) async throws(SourceError) -> Result<(RateTable, Data), SourceError> {
        let source = settings.source
        func parse(_ body: Data) throws(SourceError) -> RateTable {
            let outcome = try RatesParser.parse(body, format: settings.format)
            if let warning = outcome.warning { warnings.append(warning) }
            return outcome.table
        }
        if let copy = try reusableCopy(source, location: URLRedactor.display(url), display: SourceDescription(url).description) {
            do {
                return .success((try parse(copy.body), copy.body))
            } catch {
                // A damaged copy: ask the feed instead, unless asking is not allowed.
                if options.offline { return .failure(error) }
            }
        }
        do {
            let body = try await downloader.get(
                url, for: source, token: tokens[source.name], notFoundHint: "check [\(source.name)] url",
                deadline: downloader.deadline(for: source, url: url), requests: &requests)
            let table = try parse(body)
            save(body, source, location: URLRedactor.display(url), warnings: &warnings)
            return .success((table, body))
        } catch {
            guard let copy = cache.read(source.name, location: URLRedactor.display(url)), var table = try? parse(copy.body) else {
                return .failure(error)
            }
            table.fromCache = true
            let fetched = "\(Timestamp.display(copy.fetchedAt, timeZone: configuration.timeZone)) (\(configuration.timeZone.identifier))"
            warnings.append(
                .init(
                    row: nil,
                    Reason(
                        .ratesFromCache, ["error": error.description, "time": fetched])))
            return .success((table, copy.body))
        }
    }

    /// The cached copy to use instead of asking: always under `--offline` (none is an error),
    /// otherwise while it is younger than `refresh_minutes`.
    /// `location` is what the copy's meta must say it came from; `display` names the source in messages.
    private func reusableCopy(_ source: Configuration.SourceSettings, location: String, display: String) throws(SourceError) -> SourceCache.Entry? {
        let copy = cache.read(source.name, location: location)
        if options.offline {
            guard let copy else {
                throw SourceError(
                    source: source.name,
                    message: "--offline, but the state folder holds no copy of \(display); run once without --offline")
            }
            return copy
        }
        guard let copy, source.refreshMinutes > 0 else { return nil }
        let age = now.timeIntervalSince(copy.fetchedAt)
        return age >= 0 && age < Double(source.refreshMinutes) * 60 ? copy : nil
    }

    private func save(
        _ body: Data, _ source: Configuration.SourceSettings, location: String, pages: SourceFingerprint.Pages.Digest? = nil,
        warnings: inout [DataWarning]
    ) {
        guard options.saveCache else { return }
        do {
            try cache.write(body, name: source.name, location: location, fetchedAt: now, renew: source.refreshMinutes > 0, pages: pages)
        } catch {
            warnings.append(
                .init(
                    row: nil,
                    Reason(
                        .cacheNotSaved, ["source": source.name, "error": error.description])))
        }
    }

    /// A local orders file may hold the largest sheet there is (10 million cells: a million orders as
    /// SheetDB's JSON, keys on every row, is about 280 MB), which a URL source reads in pages of at most
    /// 256 MiB each; a groups or rates file keeps the bound of one response.
    static let maxOrdersFileBytes = 1 << 30

    /// A local source's bytes, its size checked before anything is read (see `BoundedFile`).
    private func read(_ file: URL, _ source: Configuration.SourceSettings, limit: Int = BoundedFile.maxBytes) throws(SourceError) -> Data {
        do throws(BoundedFile.Failure) {
            return try BoundedFile.read(file.path, limit: limit)
        } catch .tooLarge(let limit) {
            throw SourceError(
                source: source.name,
                message: "\(SourceDescription(file: file)) is larger than \(BoundedFile.Failure.size(limit)), the most OrderPress reads from one source; "
                    + "check [\(source.name)] path in the configuration")
        } catch {
            throw SourceError(
                source: source.name, message: "cannot read \(SourceDescription(file: file)) (\(error.reason)); check [\(source.name)] path in the configuration")
        }
    }

    private static func tokens(_ configuration: Configuration, _ environment: [String: String]) throws(ConfigurationError) -> [String: String] {
        var tokens: [String: String] = [:]
        for source in [configuration.orders, configuration.groups, configuration.payments, configuration.rates?.source].compactMap({ $0 }) {
            guard case .url = source.location, let variable = source.tokenEnvironmentVariable else { continue }
            let token = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard !token.isEmpty else {
                throw ConfigurationError.invalid(
                    "\(source.name).token_env", "names \(variable), which is unset or empty; export the API token in \(variable)",
                    in: configuration.file.lastPathComponent)
            }
            tokens[source.name] = token
        }
        return tokens
    }

    /// Each Google Sheet source's credentials: an unset variable, or a key file that cannot be used, is a
    /// configuration error (64) naming the variable, before any request.
    private static func googleCredentials(
        _ configuration: Configuration, _ environment: [String: String]
    ) throws(ConfigurationError) -> [String: GoogleCredentials] {
        var credentials: [String: GoogleCredentials] = [:]
        let file = configuration.file.lastPathComponent
        for source in [configuration.orders, configuration.groups, configuration.payments].compactMap({ $0 }) {
            guard case .googleSheet(let sheet) = source.location else { continue }
            switch sheet.credentials {
            case .apiKey(let variable):
                let key = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                guard !key.isEmpty else {
                    throw ConfigurationError.invalid(
                        "\(source.name).api_key_env", "names \(variable), which is unset or empty; export the Google API key in \(variable)", in: file)
                }
                credentials[source.name] = .apiKey(key)
            case .serviceAccount(let variable):
                let account = try GoogleServiceAccount.load(
                    variable: variable, environment: environment, key: "\(source.name).credentials_env", file: file)
                credentials[source.name] = .serviceAccount(account, variable: variable)
            }
        }
        return credentials
    }
}
