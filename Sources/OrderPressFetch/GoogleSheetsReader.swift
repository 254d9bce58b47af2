import Foundation
import OrderPressConfig
import OrderPressSupport

/// Reads tabs of one Google spreadsheet through the Sheets API v4 in one request: `values.get` for one
/// tab, `values:batchGet` for several, always with `UNFORMATTED_VALUE` and `SERIAL_NUMBER` so that numbers,
/// checkboxes and date serials arrive raw whatever the sheet's locale. Each tab becomes a `SourceTable`
/// whose cells read as the SheetDB JSON path reads raw values: a number as its exact decimal text
/// (`JSONNumberText`), a checkbox as `TRUE`/`FALSE`.
struct GoogleSheetsReader: Sendable {
    package var downloader: Downloader

    /// How a request proves it may read the sheet.
    package enum Credential: Sendable {
        case apiKey(String)
        /// A service account's access token, sent as a bearer token.
        case accessToken(String, clientEmail: String)
    }

    /// One tab to read, and the configuration table it is for.
    package struct Tab: Sendable {
        package var source: Configuration.SourceSettings
        var sheet: GoogleSheetSource
    }

    /// The tables of `tabs` (all of one spreadsheet, read with the same credential), in their order, and
    /// the answer's bytes (for the sources' fingerprint). Bounded like every source: the transport's size
    /// limit, the first tab's timeouts and deadline, `max_rows` per tab (checked by the caller).
    func read(_ tabs: [Tab], credential: Credential, requests: inout Int) async throws(SourceError) -> (tables: [SourceTable], body: Data) {
        precondition(!tabs.isEmpty)
        let first = tabs[0].source
        var apiKey: String?
        var bearer: String?
        switch credential {
        case .apiKey(let key): apiKey = key
        case .accessToken(let token, _): bearer = token
        }
        let url = Self.url(tabs.map(\.sheet), apiKey: apiKey)
        let hint: @Sendable (HTTPReply) -> String? = { reply in Self.hint(reply, tabs: tabs, credential: credential) }
        let body = try await downloader.get(
            url, for: first, token: bearer, notFoundHint: Self.notFound(first), deadline: downloader.deadline(for: first, url: url),
            requests: &requests, hint: hint)
        return (try Self.tables(body, tabs: tabs), body)
    }

    /// The request for `sheets` (tabs of one spreadsheet): the tab's values, or a batch of every tab's.
    package static func url(_ sheets: [GoogleSheetSource], apiKey: String?) -> URL {
        let sheet = sheets[0]
        var base = sheet.apiURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var address = base + "/v4/spreadsheets/" + encoded(sheet.spreadsheetID)
        var query: [String] = []
        if sheets.count == 1 {
            address += "/values/" + encoded(sheet.range)
        } else {
            address += "/values:batchGet"
            query += sheets.map { "ranges=" + encoded($0.range) }
        }
        query += ["valueRenderOption=UNFORMATTED_VALUE", "dateTimeRenderOption=SERIAL_NUMBER", "majorDimension=ROWS"]
        if let apiKey { query.append("key=" + encoded(apiKey)) }
        return URL(string: address + "?" + query.joined(separator: "&"))!
    }

    /// RFC 3986's unreserved characters stay; everything else (quotes, spaces, `!`, any letter beyond ASCII) is percent-encoded.
    static func encoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Each tab's table from an answer: `{"values": …}` for one tab, `{"valueRanges": [{"values": …}, …]}`
    /// (in the order asked) for several.
    static func tables(_ body: Data, tabs: [Tab]) throws(SourceError) -> [SourceTable] {
        let name = tabs[0].source.name
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: JSONNumberText.quotingNumbers(body), options: [])
        } catch {
            throw SourceError(source: name, message: "the Sheets API's answer is not valid JSON; check \(name).google_api_url")
        }
        guard let answer = object as? [String: Any] else {
            throw SourceError(source: name, message: "the Sheets API's answer is not a JSON object; check \(name).google_api_url")
        }
        if tabs.count == 1 { return [try table(answer["values"], tab: tabs[0])] }
        guard let ranges = answer["valueRanges"] as? [Any], ranges.count == tabs.count else {
            throw SourceError(source: name, message: "the Sheets API's answer does not hold one range per tab asked for; check \(name).google_api_url")
        }
        var tables: [SourceTable] = []
        for (range, tab) in zip(ranges, tabs) {
            guard let range = range as? [String: Any] else {
                throw SourceError(source: tab.source.name, message: "the Sheets API's answer for tab '\(tab.sheet.tab)' is not an object")
            }
            tables.append(try table(range["values"], tab: tab))
        }
        return tables
    }

    /// A tab's rows (`majorDimension` ROWS): the first the header, the rest data rows numbered from 2.
    /// The API leaves out trailing empty cells, so a short row reads "" in the rest; a column without a
    /// header is not read (no mapping can name it), and a repeated header reads its first column only.
    /// Headers are sorted as a JSON body's are, so that the cached copy reads back as the same table; the
    /// sheet's own order is kept in `sheetOrder`.
    package static func table(_ values: Any?, tab: Tab) throws(SourceError) -> SourceTable {
        let name = tab.source.name
        guard let values else { return SourceTable(name: name, headers: [], rows: []) }  // an empty tab
        guard let rows = values as? [Any] else {
            throw SourceError(source: name, message: "the Sheets API's values for tab '\(tab.sheet.tab)' are not a list of rows")
        }
        func cells(_ row: Any, number: Int) throws(SourceError) -> [String] {
            guard let row = row as? [Any] else {
                throw SourceError(source: name, message: "row \(number) of tab '\(tab.sheet.tab)' is not a list of cells")
            }
            var texts: [String] = []
            texts.reserveCapacity(row.count)
            for value in row {
                guard let text = SheetParser.cellText(value) else {
                    throw SourceError(source: name, message: "row \(number) of tab '\(tab.sheet.tab)' holds a list or an object; expected text or a number")
                }
                texts.append(text)
            }
            return texts
        }
        guard let headerRow = rows.first else { return SourceTable(name: name, headers: [], rows: []) }
        var columns: [(header: String, column: Int)] = []
        var seen = Set<String>()
        for (column, text) in try cells(headerRow, number: 1).enumerated() {
            let header = Text.normalize(text)
            guard !header.isEmpty, seen.insert(header).inserted else { continue }
            columns.append((header, column))
        }
        let sorted = columns.sorted { $0.header < $1.header }
        var all = CellStore()
        for (index, row) in rows.dropFirst().enumerated() {
            let texts = try cells(row, number: index + 2)
            for (_, column) in sorted {
                if column < texts.count { all.append(texts[column]) } else { all.appendEmpty() }
            }
        }
        var table = SourceTable(name: name, headers: sorted.map(\.header), store: all, numbers: Array(2..<(rows.count + 1)))
        table.sheetOrder = columns.map(\.header)
        return table
    }

    static func notFound(_ source: Configuration.SourceSettings) -> String {
        "no spreadsheet has the id in \(source.name).google_sheet; check it (the part of the sheet's address after /d/)"
    }

    /// What to fix for a failing answer, from its status and Google's error reason. Nothing of the body is
    /// repeated: only the configured tab names and the account's e-mail.
    package static func hint(_ reply: HTTPReply, tabs: [Tab], credential: Credential) -> String? {
        let text = String(decoding: reply.body.prefix(1 << 16), as: UTF8.self)
        let name = tabs[0].source.name
        let variable = tabs[0].sheet.credentials.variable
        switch reply.status {
        case 400:
            if text.contains("API_KEY_INVALID") || text.contains("API key not valid") {
                return "Google refused the API key; check the key in \(variable)"
            }
            let named = tabs.filter { text.contains("range: \($0.sheet.range)") || text.contains("range: \($0.sheet.tab)") }
            let suspects = named.isEmpty ? tabs : named
            let list = suspects.map { "'\($0.sheet.tab)' ([\($0.source.name)] tab)" }.joined(separator: ", ")
            return "the spreadsheet has no tab named \(list); check the tab's name as the sheet shows it (spaces and case count)"
        case 401:
            return "Google refused the credentials; check \(variable)"
        case 403:
            if text.contains("SERVICE_DISABLED") || text.contains("has not been used") || text.contains("is disabled") {
                return "the Google Sheets API is not enabled for the project of these credentials; enable it (Google Cloud console › APIs & Services › Library › Google Sheets API)"
            }
            switch credential {
            case .accessToken(_, let email):
                return "share the sheet with \(email) (Share › add the e-mail as a Viewer), and check that the Google Sheets API is enabled for its project"
            case .apiKey:
                return "an API key reads only a sheet anyone with the link can view: share it that way (Share › General access), or use a service account (\(name).credentials_env); check that the Google Sheets API is enabled for the key's project"
            }
        case 404:
            return notFound(tabs[0].source)
        case 429:
            return "Google's per-minute read quota is used up; wait a minute, or raise refresh_minutes"
        default:
            return nil
        }
    }
}
