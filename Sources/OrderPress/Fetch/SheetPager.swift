import Foundation

/// Reads a SheetDB-compatible sheet page by page (`limit`, `offset`) until a page comes back short,
/// keeping every other query item of the configured URL (`sheet=`, `mode=`, `cast_numbers=`).
struct SheetPager: Sendable {
    var downloader: Downloader

    /// A Google spreadsheet holds at most 10 million cells, so no sheet has more rows.
    static let maxRows = 10_000_000

    /// Every row object of the sheet, in sheet order.
    func rows(_ url: URL, for source: Configuration.SourceSettings, token: String?, requests: inout Int) async throws(SourceError) -> [Any] {
        let hint = Self.notFoundHint(url, source: source.name)
        var rows: [Any] = []
        var firstPage: Data?
        while true {
            let offset = rows.count
            let page = Self.pageURL(url, limit: source.pageSize, offset: offset)
            let body = try await downloader.get(page, for: source, token: token, notFoundHint: hint, requests: &requests)
            let elements: [Any]
            do {
                elements = try SheetParser.jsonArray(body, source: source.name)
            } catch {
                throw SourceError(source: source.name, message: "\(URLText.display(page)): \(error.message)")
            }
            rows.append(contentsOf: elements)
            // A short page is the last one; a longer one means the server ignores `limit` and sent everything.
            guard elements.count == source.pageSize else { return rows }
            if offset == 0 {
                firstPage = body
            } else if body == firstPage {
                throw SourceError(
                    source: source.name,
                    message: "\(URLText.display(page)) sent the same rows as offset 0; the server ignores offset, so the sheet cannot be read in pages")
            }
            guard rows.count < Self.maxRows else {
                throw SourceError(source: source.name, message: "\(URLText.display(url)) keeps sending rows past \(Self.maxRows); is it a SheetDB-compatible API?")
            }
        }
    }

    /// `url` with `limit` and `offset` set, every other query item kept as written.
    static func pageURL(_ url: URL, limit: Int, offset: Int) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = (components.percentEncodedQueryItems ?? []).filter { $0.name != "limit" && $0.name != "offset" }
        items.append(URLQueryItem(name: "limit", value: String(limit)))
        items.append(URLQueryItem(name: "offset", value: String(offset)))
        components.percentEncodedQueryItems = items
        return components.url ?? url
    }

    /// SheetDB answers 404 for an unknown tab or API id.
    private static func notFoundHint(_ url: URL, source: String) -> String {
        let sheet = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "sheet" }?.value
        return sheet.map { "check the sheet name '\($0)' and the API id in [\(source)] url" } ?? "check the API id in [\(source)] url"
    }
}
