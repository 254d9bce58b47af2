import Foundation

/// A URL as messages and the cache show it: no user or password, and only the values of
/// query items known to be harmless (a key someone put in the query must not reach a log).
/// A bare query item (`?abcdef123`) may itself be the key, and so may `;name=value` parameters,
/// in the path or the query: all of them are redacted too.
enum URLRedactor {
    static let harmlessQueryItems: Set<String> = [
        "sheet", "limit", "offset", "mode", "cast_numbers", "sort_by", "sort_order",
        // The Sheets API's (`key` is not one of them).
        "ranges", "valueRenderOption", "dateTimeRenderOption", "majorDimension",
    ]
    package static let redacted = "redacted"

    static func display(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the configured url" }
        components.user = nil
        components.password = nil
        components.fragment = nil
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        components.percentEncodedPath = segments.indices
            .map { index in
                // A Google spreadsheet's id: for a sheet shared by link, anyone who has it can read the sheet.
                if index > 0, segments[index - 1] == "spreadsheets", !segments[index].isEmpty { return redacted }
                // `segment;a=1;b` keeps `segment` and the parameter names.
                let parts = segments[index].split(separator: ";", omittingEmptySubsequences: false)
                return ([String(parts[0])] + parts.dropFirst().map { redact(String($0), keeping: []) }).joined(separator: ";")
            }
            .joined(separator: "/")
        if let query = components.percentEncodedQuery {
            var shown = ""
            var piece = ""
            for character in query {
                guard character == "&" || character == ";" else {
                    piece.append(character)
                    continue
                }
                shown += redact(piece, keeping: harmlessQueryItems) + String(character)
                piece = ""
            }
            components.percentEncodedQuery = shown + redact(piece, keeping: harmlessQueryItems)
        }
        return components.string ?? "the configured url"
    }

    /// `name=value` with the value redacted, or a bare `name` redacted, unless the name is in `harmless`.
    private static func redact(_ piece: String, keeping harmless: Set<String>) -> String {
        guard !piece.isEmpty else { return piece }
        let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        if harmless.contains(name.removingPercentEncoding ?? name) { return piece }
        return parts.count == 1 ? redacted : "\(name)=\(redacted)"
    }
}
