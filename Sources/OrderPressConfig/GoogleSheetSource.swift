import Crypto
import Foundation
import OrderPressSupport

/// A tab of a Google Sheet read through the Sheets API v4 (`google_sheet` + `tab`), with the
/// credentials to read it: an API key or a service account's key file, each named by a variable.
public struct GoogleSheetSource: Sendable, Equatable {
    /// The spreadsheet's id (the part of its URL after `/d/`).
    public var spreadsheetID: String
    /// The tab's name as the sheet shows it.
    public var tab: String
    public var credentials: Credentials
    /// `google_api_url`: the API's origin, for tests and proxies.
    public var apiURL: URL

    public enum Credentials: Sendable, Equatable {
        /// `api_key_env`: a key for a sheet anyone with the link can read.
        case apiKey(variable: String)
        /// `credentials_env`: the variable holds the path of a service account's JSON key file.
        case serviceAccount(variable: String)

        package var variable: String {
            switch self {
            case .apiKey(let variable), .serviceAccount(let variable): return variable
            }
        }
    }

    static let defaultAPIURL = URL(string: "https://sheets.googleapis.com")!

    /// The tab as an A1 range: quoted, a quote inside doubled, so that any name reads as a whole tab.
    package var range: String { "'" + tab.replacingOccurrences(of: "'", with: "''") + "'" }

    /// Where the cached copy says it came from: the spreadsheet by a digest of its id (which, for a sheet
    /// shared by link, is as good as a key) and the tab.
    package var cacheLocation: String {
        let digest = Hex.lowercase(SHA256.hash(data: Data(spreadsheetID.utf8))).prefix(16)
        return "google-sheets \(apiURL.host ?? "") \(digest) \(range)"
    }

    /// How messages name it: the tab only, never the spreadsheet's id.
    package var display: String { "the Google Sheet's tab '\(tab)'" }

    /// The id in a `google_sheet` value: the id itself, or a `https://docs.google.com/spreadsheets/d/<id>/…` URL.
    static func spreadsheetID(_ value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        var id = trimmed
        if trimmed.contains("/") {
            guard let url = URL(string: trimmed), let host = url.host?.lowercased(), host == "docs.google.com" else { return nil }
            let parts = url.path.split(separator: "/").map(String.init)
            // `/spreadsheets/d/<id>/edit`, or with an account chosen, `/spreadsheets/u/1/d/<id>/edit`.
            guard let sheets = parts.firstIndex(of: "spreadsheets"), let d = parts[sheets...].firstIndex(of: "d"), d + 1 < parts.count
            else { return nil }
            id = parts[d + 1]
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        guard !id.isEmpty, id.count <= 200, id.allSatisfy({ allowed.contains($0) }) else { return nil }
        return id
    }

    /// Reads the `google_sheet` keys of a source table; nil without `google_sheet` (then none of the
    /// others may be set).
    static func read(_ table: inout TOMLTableReader) throws -> GoogleSheetSource? {
        let name = table.path
        let sheet = try table.string("google_sheet")
        let tab = try table.string("tab")
        let apiKey = try table.string("api_key_env")
        let credentials = try table.string("credentials_env")
        let api = try table.string("google_api_url")
        guard let sheet else {
            for (key, value) in [("tab", tab), ("api_key_env", apiKey), ("credentials_env", credentials), ("google_api_url", api)] where value != nil {
                throw ConfigurationError.invalid("\(name).\(key)", "belongs with google_sheet; set \(name).google_sheet or remove it", in: table.file)
            }
            return nil
        }
        guard let id = spreadsheetID(sheet) else {
            throw ConfigurationError.invalid(
                "\(name).google_sheet",
                "must be a spreadsheet's id or its address (https://docs.google.com/spreadsheets/d/<id>/edit)", in: table.file)
        }
        guard let tab, !tab.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ConfigurationError.invalid(
                "\(name).tab", "is required with google_sheet: the name of the tab to read, as the sheet shows it", in: table.file)
        }
        let chosen: Credentials
        switch (apiKey, credentials) {
        case let (variable?, nil): chosen = .apiKey(variable: variable)
        case let (nil, variable?): chosen = .serviceAccount(variable: variable)
        case (.some, .some):
            throw ConfigurationError.invalid(name, "takes either api_key_env or credentials_env with google_sheet, not both", in: table.file)
        case (nil, nil):
            throw ConfigurationError.invalid(
                name,
                "needs api_key_env (an API key, for a sheet shared with anyone with the link) or credentials_env (a service account's key file) with google_sheet",
                in: table.file)
        }
        guard !chosen.variable.isEmpty else {
            throw ConfigurationError.invalid("\(name).\(apiKey != nil ? "api_key_env" : "credentials_env")", "must name an environment variable", in: table.file)
        }
        var apiURL = defaultAPIURL
        if let api {
            guard let parsed = URL(string: api), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
                parsed.host != nil, parsed.query == nil
            else {
                throw ConfigurationError.invalid("\(name).google_api_url", "must be an http or https address such as \"https://sheets.googleapis.com\"", in: table.file)
            }
            apiURL = parsed
        }
        return GoogleSheetSource(spreadsheetID: id, tab: tab, credentials: chosen, apiURL: apiURL)
    }
}
