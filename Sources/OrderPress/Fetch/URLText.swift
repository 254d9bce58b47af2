import Foundation

/// A URL as messages and the cache show it: no user or password, and only the values of
/// query items known to be harmless (a key someone put in the query must not reach a log).
enum URLText {
    static let harmlessQueryItems: Set<String> = ["sheet", "limit", "offset", "mode", "cast_numbers", "sort_by", "sort_order"]

    static func display(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the configured url" }
        components.user = nil
        components.password = nil
        components.fragment = nil
        components.percentEncodedQueryItems = components.percentEncodedQueryItems?.map { item in
            harmlessQueryItems.contains(item.name) || item.value == nil ? item : URLQueryItem(name: item.name, value: "redacted")
        }
        return components.string ?? "the configured url"
    }
}
