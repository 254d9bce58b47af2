import Foundation
import TOMLKit
import OrderPressCatalogue
import OrderPressSupport

/// Reads `orderpress.toml` strictly: unknown keys and wrong types are errors naming the key.
public enum ConfigurationLoader {
    /// A configuration or a template larger than this is refused before it is read: no real one comes near.
    package static let maxBytes = 16 << 20

    public static func load(from file: URL) throws(ConfigurationError) -> Configuration {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) else {
            throw ConfigurationError(
                file: file.path,
                message: "does not exist; create a site with 'orderpress init DIR', or pass --config FILE or run in the site's folder")
        }
        if isFolder.boolValue {
            throw ConfigurationError(
                file: file.path,
                message: "is a folder; pass the orderpress.toml file inside it (--config \(file.appendingPathComponent("orderpress.toml").path))")
        }
        let text: String
        do {
            let data = try BoundedFile.read(file.path, limit: maxBytes, streams: true)
            guard let decoded = utf8Text(data) else {
                throw ConfigurationError(file: file.path, message: "cannot be read (it is not UTF-8 text); save it as UTF-8")
            }
            text = decoded
        } catch let error as ConfigurationError {
            throw error
        } catch let error as BoundedFile.Failure {
            throw ConfigurationError(
                file: file.path, message: "cannot be read (\(error.reason)); pass --config FILE or run in the site's folder")
        } catch {
            throw ConfigurationError(file: file.path, message: "cannot be read (\(error)); pass --config FILE or run in the site's folder")
        }
        return try parse(text, file: file)
    }

    /// UTF-8 text without a byte-order mark (which Windows editors write), or nil when it is not UTF-8.
    package static func utf8Text(_ data: Data) -> String? {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        return String(validating: data.starts(with: bom) ? data.dropFirst(3) : data[...], as: UTF8.self)
    }

    /// Parses configuration text; `file` names the file in messages and anchors relative paths.
    public static func parse(_ text: String, file: URL) throws(ConfigurationError) -> Configuration {
        let name = file.lastPathComponent
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError(
                file: name, message: "line \(error.source.begin.line): \(error.description)")
        } catch {
            throw ConfigurationError(file: name, message: "is not valid TOML (\(error))")
        }
        do {
            return try read(TOMLTableReader(root, file: name), folder: file.deletingLastPathComponent(), file: file)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(file: name, message: "\(error)")
        }
    }

    private static func read(_ reader: TOMLTableReader, folder: URL, file: URL) throws -> Configuration {
        var root = reader
        let name = reader.file
        func resolve(_ path: String) -> URL {
            URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL
        }

        let title = try root.string("title") ?? "Orders"
        let language = try root.string("language") ?? "en"
        let baseCurrency = try currencyCode(root.string("base_currency") ?? "TWD", key: "base_currency", file: name)
        let display = try (root.strings("display_currencies") ?? []).map {
            try currencyCode($0, key: "display_currencies", file: name)
        }
        let zoneName = try root.string("timezone") ?? "UTC"
        guard let timeZone = TimeZone(identifier: zoneName) else {
            throw ConfigurationError.invalid("timezone", "names an unknown time zone '\(zoneName)'; use an IANA name such as \"Asia/Taipei\"", in: name)
        }
        let templates = try root.string("templates").map(resolve)
        if let templates {
            var isFolder: ObjCBool = false
            if !FileManager.default.fileExists(atPath: templates.path, isDirectory: &isFolder) {
                throw ConfigurationError.invalid(
                    "templates", "names \(templates.path), which does not exist; create it (orderpress init writes one) or remove the key", in: name)
            }
            guard isFolder.boolValue else {
                throw ConfigurationError.invalid("templates", "names \(templates.path), which is not a folder; name the folder of templates", in: name)
            }
        }

        var outputTable = try root.table("output")
        let markdown = try outputTable?.string("markdown") ?? "output/markdown"
        let site = try outputTable?.string("site") ?? "output/site"
        let state = try outputTable?.string("state") ?? "output/state"
        try outputTable?.rejectUnknownKeys()

        guard var ordersTable = try root.table("orders") else {
            throw ConfigurationError.missing("orders", in: name)
        }
        var orders = try source(&ordersTable, resolve: resolve)
        orders.pageSize = try pageSize(&ordersTable)
        orders.maxRows = try maxRows(&ordersTable)
        var orderColumns = Configuration.OrderColumns()
        if var columns = try ordersTable.table("columns") {
            orderColumns.id = try columns.string("id") ?? orderColumns.id
            orderColumns.group = try columns.string("group") ?? orderColumns.group
            orderColumns.person = try columns.string("person") ?? orderColumns.person
            orderColumns.item = try columns.string("item") ?? orderColumns.item
            orderColumns.options = try columns.strings("options") ?? orderColumns.options
            orderColumns.quantity = try columns.string("quantity") ?? orderColumns.quantity
            orderColumns.price = try columns.string("price") ?? orderColumns.price
            orderColumns.currency = try columns.string("currency") ?? orderColumns.currency
            orderColumns.time = try columns.string("time") ?? orderColumns.time
            orderColumns.note = try columns.string("note") ?? orderColumns.note
            orderColumns.paid = try columns.string("paid") ?? orderColumns.paid
            orderColumns.secret = try columns.strings("secret") ?? orderColumns.secret
            try columns.rejectUnknownKeys()
        }
        try ordersTable.rejectUnknownKeys()

        var groups: Configuration.SourceSettings?
        var groupColumns = Configuration.GroupColumns()
        if var groupsTable = try root.table("groups") {
            groups = try source(&groupsTable, resolve: resolve)
            groups?.pageSize = try pageSize(&groupsTable)
            groups?.maxRows = try maxRows(&groupsTable)
            if var columns = try groupsTable.table("columns") {
                groupColumns.name = try columns.string("name") ?? groupColumns.name
                groupColumns.organizer = try columns.string("organizer") ?? groupColumns.organizer
                groupColumns.shop = try columns.string("shop") ?? groupColumns.shop
                groupColumns.currency = try columns.string("currency") ?? groupColumns.currency
                groupColumns.deadline = try columns.string("deadline") ?? groupColumns.deadline
                groupColumns.payment = try columns.string("payment") ?? groupColumns.payment
                groupColumns.fee = try columns.string("fee") ?? groupColumns.fee
                groupColumns.discount = try columns.string("discount") ?? groupColumns.discount
                try columns.rejectUnknownKeys()
            }
            try groupsTable.rejectUnknownKeys()
        }

        var payments: Configuration.SourceSettings?
        var paymentColumns = Configuration.PaymentColumns()
        if var paymentsTable = try root.table("payments") {
            payments = try source(&paymentsTable, resolve: resolve)
            payments?.pageSize = try pageSize(&paymentsTable)
            payments?.maxRows = try maxRows(&paymentsTable)
            if var columns = try paymentsTable.table("columns") {
                paymentColumns.person = try columns.string("person") ?? paymentColumns.person
                paymentColumns.amount = try columns.string("amount") ?? paymentColumns.amount
                paymentColumns.currency = try columns.string("currency") ?? paymentColumns.currency
                paymentColumns.group = try columns.string("group") ?? paymentColumns.group
                paymentColumns.time = try columns.string("time") ?? paymentColumns.time
                try columns.rejectUnknownKeys()
            }
            try paymentsTable.rejectUnknownKeys()
        }

        var rates: Configuration.RateSettings?
        if var ratesTable = try root.table("rates") {
            let settings = try source(&ratesTable, resolve: resolve)
            if case .googleSheet = settings.location {
                throw ConfigurationError.invalid("rates.google_sheet", "is for sheets; rates come from a feed's url or a file's path", in: name)
            }
            // A rates feed has its own fixed formats: the sheets' reading keys do not apply to it.
            if settings.dateOrder != nil { throw ConfigurationError.unknownKey(ratesTable.qualified("date_order"), in: name) }
            if settings.decimalSeparator != .point { throw ConfigurationError.unknownKey(ratesTable.qualified("decimal_separator"), in: name) }
            let formatName = try ratesTable.string("format") ?? "rter"
            guard let format = Configuration.RateFormat(rawValue: formatName) else {
                throw ConfigurationError.invalid("rates.format", "must be one of rter, ecb, json (found '\(formatName)')", in: name)
            }
            let maxAge = try ratesTable.int("max_age_hours", in: 1...8_760) ?? 48
            try ratesTable.rejectUnknownKeys()
            rates = Configuration.RateSettings(source: settings, format: format, maxAgeHours: maxAge)
        }

        var minorUnits: [String: Int] = [:]
        if var unitsTable = try root.table("minor_units") {
            for key in unitsTable.keys {
                let code = try currencyCode(key, key: "minor_units.\(key)", file: name)
                guard let digits = try unitsTable.int(key), (0...4).contains(digits) else {
                    throw ConfigurationError.invalid("minor_units.\(key)", "must be a whole number from 0 to 4", in: name)
                }
                minorUnits[code] = digits
            }
        }

        var maxDeletedFraction = 0.5
        if var guardTable = try root.table("guard") {
            if let fraction = try guardTable.number("max_deleted_fraction") {
                guard (0...1).contains(fraction) else {
                    throw ConfigurationError.invalid("guard.max_deleted_fraction", "must be between 0 and 1", in: name)
                }
                maxDeletedFraction = fraction
            }
            try guardTable.rejectUnknownKeys()
        }
        let (labels, baseURL) = try siteSettings(&root)
        var gitCommit = false
        if var gitTable = try root.table("git") {
            gitCommit = try gitTable.bool("commit") ?? false
            try gitTable.rejectUnknownKeys()
        }
        let notify = try NotifySettings.read(&root)
        let rounds = try RoundSettings.read(&root)
        let indexable = try root.bool("indexable") ?? false
        try root.rejectUnknownKeys()

        let output = Configuration.OutputPaths(markdown: resolve(markdown), site: resolve(site), state: resolve(state))
        let sources = [orders, groups, payments, rates?.source].compactMap { source -> FolderLayout.Place? in
            guard let source, case .path(let url) = source.location else { return nil }
            return FolderLayout.Place(key: "\(source.name).path", url: url)
        }
        try FolderLayout.check(
            markdown: .init(key: "output.markdown", url: output.markdown), site: .init(key: "output.site", url: output.site),
            state: .init(key: "output.state", url: output.state), configuration: file, sources: sources, file: name)

        var configuration = Configuration(
            file: file, title: title, language: language, labels: labels, baseURL: baseURL, baseCurrency: baseCurrency,
            displayCurrencies: display, timeZone: timeZone, templates: templates,
            output: output,
            orders: orders, orderColumns: orderColumns, groups: groups, groupColumns: groupColumns,
            rates: rates, minorUnits: minorUnits, maxDeletedFraction: maxDeletedFraction, gitCommit: gitCommit, notify: notify)
        (configuration.rounds, configuration.indexable) = (rounds, indexable)
        (configuration.payments, configuration.paymentColumns) = (payments, paymentColumns)
        return configuration
    }

    /// Reads the keys every source table shares; the caller reads the rest.
    private static func source(
        _ table: inout TOMLTableReader, resolve: (String) -> URL
    ) throws -> Configuration.SourceSettings {
        let name = table.path
        let url = try table.string("url")
        let path = try table.string("path")
        let google = try GoogleSheetSource.read(&table)
        let location: Configuration.Location
        switch (url, path) {
        case _ where google != nil:
            guard url == nil, path == nil else {
                throw ConfigurationError.invalid(name, "takes one of url, path or google_sheet, not several", in: table.file)
            }
            location = .googleSheet(google!)
        case let (url?, nil):
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
                scheme == "http" || scheme == "https", parsed.host != nil
            else {
                throw ConfigurationError.invalid("\(name).url", "must be an http or https address", in: table.file)
            }
            location = .url(parsed)
        case let (nil, path?):
            location = .path(resolve(path))
        case (.some, .some):
            throw ConfigurationError.invalid(name, "takes either url or path, not both", in: table.file)
        case (nil, nil):
            throw ConfigurationError.invalid(name, "needs a url, a path or a google_sheet", in: table.file)
        }
        let token = try table.string("token_env")
        // A token read for a source that never sends one would leave the user believing the sheet is read with it.
        if token != nil {
            switch location {
            case .url: break
            case .path:
                throw ConfigurationError.invalid("\(name).token_env", "is sent only to a url source; remove it (a file is read without a token)", in: table.file)
            case .googleSheet:
                throw ConfigurationError.invalid(
                    "\(name).token_env", "is sent only to a url source; a google_sheet reads its key from api_key_env or credentials_env", in: table.file)
            }
        }
        let timeout = try table.int("timeout_seconds", in: 1...600) ?? 30
        // At most a week: beyond that the cached copy would stand in for the source itself.
        let refresh = try table.int("refresh_minutes", in: 0...10_080) ?? 0
        var settings = Configuration.SourceSettings(
            name: name, location: location, tokenEnvironmentVariable: token,
            timeoutSeconds: timeout, refreshMinutes: refresh)
        if let order = try table.string("date_order") {
            guard let value = DateOrder(rawValue: order.lowercased()) else {
                throw ConfigurationError.invalid(
                    "\(name).date_order", "must be \"mdy\", \"dmy\" or \"ymd\" (found '\(order)'): the order the sheet's locale writes a date's numbers in",
                    in: table.file)
            }
            settings.dateOrder = value
        }
        if let mark = try table.string("decimal_separator") {
            guard let value = DecimalSeparator(rawValue: mark) else {
                throw ConfigurationError.invalid(
                    "\(name).decimal_separator", "must be \".\" or \",\" (found '\(mark)'): the mark between a number's whole part and its fraction",
                    in: table.file)
            }
            settings.decimalSeparator = value
        }
        return settings
    }

    /// `[labels]` (every key must name a built-in label) and `base_url` (absolute http or https;
    /// a missing final "/" is added, since feed links are resolved against it).
    private static func siteSettings(_ root: inout TOMLTableReader) throws -> (labels: [String: String], baseURL: String?) {
        var labels: [String: String] = [:]
        if var table = try root.table("labels") {
            for key in table.keys {
                guard Labels.keys.contains(key) else { throw ConfigurationError.unknownKey(table.qualified(key), in: root.file) }
                labels[key] = try table.string(key)
            }
        }
        guard let base = try root.string("base_url") else { return (labels, nil) }
        guard let url = URL(string: base), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
            url.query == nil, url.fragment == nil
        else {
            throw ConfigurationError.invalid(
                "base_url", "must be an absolute http or https address such as \"https://tea.example.org/friday/\"", in: root.file)
        }
        return (labels, base.hasSuffix("/") ? base : base + "/")
    }

    /// `page_size`: sheets only, since a rates feed is one document.
    private static func pageSize(_ table: inout TOMLTableReader) throws -> Int {
        try table.int("page_size", in: 1...10_000) ?? 1000
    }

    /// `max_rows`: sheets only. A Google spreadsheet holds at most 10 million cells, so no sheet has more rows.
    private static func maxRows(_ table: inout TOMLTableReader) throws -> Int {
        try table.int("max_rows", in: 1...10_000_000) ?? 1_000_000
    }

    private static func currencyCode(_ raw: String, key: String, file: String) throws -> String {
        let code = raw.uppercased()
        guard Currency.codes.contains(code) else {
            throw ConfigurationError.invalid(key, "must be an ISO 4217 currency code such as \"TWD\" (found '\(raw)')", in: file)
        }
        return code
    }
}
