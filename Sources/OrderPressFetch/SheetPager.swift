import Foundation
import OrderPressConfig

/// Reads a SheetDB-compatible sheet page by page (`limit`, `offset`) until a page comes back short,
/// keeping every other query item of the configured URL (`sheet=`, `mode=`, `cast_numbers=`).
struct SheetPager: Sendable {
    package var downloader: Downloader

    /// Every row object of the sheet, in sheet order, and the pages that held them, hashed (for the
    /// sources' fingerprint). Bounded whatever the server does: at most `max_rows` rows, within the
    /// source's deadline, and a server that ignores `offset` is caught.
    package func rows(
        _ url: URL, for source: Configuration.SourceSettings, token: String?, requests: inout Int
    ) async throws(SourceError) -> (rows: [Any], pages: SourceFingerprint.Pages, keyOrder: [String]?) {
        let hint = Self.notFoundHint(url, source: source.name)
        let deadline = downloader.deadline(for: source, url: url)
        let size = source.pageSize
        var rows: [Any] = []
        var pages = SourceFingerprint.Pages()
        // One fingerprint per row read, and one per full page.
        var prints: [Int] = []
        var pagesSeen = Set<Int>()
        var offsetChecked = false

        func page(offset: Int, requests: inout Int) async throws(SourceError) -> (rows: [Any], prints: [Int], body: Data) {
            let page = Self.pageURL(url, limit: size, offset: offset)
            let body = try await downloader.get(page, for: source, token: token, notFoundHint: hint, deadline: deadline, requests: &requests)
            do {
                let elements = try SheetParser.jsonArray(body, source: source.name, firstRow: offset + 2)
                return (elements, elements.map(Self.fingerprint), body)
            } catch {
                throw SourceError(source: source.name, message: "\(SourceDescription(page)): \(error.message)")
            }
        }

        // The sheet's column order, from the first page's first row as SheetDB writes it (`JSONKeyOrder`).
        var keyOrder: [String]?
        while true {
            let (elements, pagePrints, body) = try await page(offset: rows.count, requests: &requests)
            if rows.isEmpty { keyOrder = JSONKeyOrder.of(body) }
            rows.append(contentsOf: elements)
            pages.add(body)
            prints.append(contentsOf: pagePrints)
            guard rows.count <= source.maxRows else {
                throw SourceError(
                    source: source.name,
                    message: "\(SourceDescription(url)) sent more than \(source.maxRows) rows; raise \(source.name).max_rows if the sheet really is that long")
            }
            // A short page is the last one; a longer one means the server ignores `limit` and sent everything.
            guard elements.count == size else { return (rows, pages, keyOrder) }
            // A full page seen before: a sheet may repeat rows, but a server that ignores `offset` repeats
            // them for ever. Asking once for offset 1 tells the two apart unless the first rows are all
            // alike (then `max_rows` and the deadline still end it).
            guard !pagesSeen.insert(Self.fingerprint(pagePrints[...])).inserted, !offsetChecked else { continue }
            offsetChecked = true
            let honest = Array(prints[1...size])
            guard honest != Array(prints[0..<size]) else { continue }
            guard try await page(offset: 1, requests: &requests).prints == honest else {
                throw SourceError(
                    source: source.name,
                    message: "\(SourceDescription(url)) sends rows already read whatever the offset; the server ignores offset, so the sheet cannot be read in pages")
            }
        }
    }

    /// Equal for rows with the same keys and values, whatever their order; for finding repeated pages.
    static func fingerprint(_ row: Any) -> Int {
        guard let object = row as? [String: Any] else {
            var hasher = Hasher()
            hasher.combine(String(describing: row))
            return hasher.finalize()
        }
        var sum = 0
        for (key, value) in object {
            var hasher = Hasher()
            hasher.combine(key)
            hasher.combine(String(describing: value))
            sum &+= hasher.finalize()
        }
        return sum
    }

    static func fingerprint(_ prints: ArraySlice<Int>) -> Int {
        var hasher = Hasher()
        for value in prints { hasher.combine(value) }
        return hasher.finalize()
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
