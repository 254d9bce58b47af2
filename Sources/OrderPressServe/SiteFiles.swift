import Foundation
import OrderPressConfig

/// Maps a request path to a file of the built site, for `orderpress serve`. Only regular files whose
/// real location is inside the site folder are ever answered: no `..`, no encoded separators, no
/// hidden files, no link that leads out of the folder or into the state folder.
public struct SiteFiles: Sendable {
    /// What a request path leads to.
    public enum Lookup: Equatable, Sendable {
        case file(URL, contentType: String)
        /// A folder asked for without its trailing slash: relative links need the slash.
        case redirect(String)
        case notFound
    }

    /// The site folder with every link resolved.
    public let root: String
    private let state: String

    public init(configuration: Configuration) throws(ServeError) {
        let site = configuration.output.site
        guard let root = Self.realPath(site.path), Self.isFolder(root) else {
            throw .siteMissing(site.path)
        }
        self.root = root
        // Resolved like the layout check does, also when the state folder does not exist yet.
        state = FolderLayout.realPath(configuration.output.state)
    }

    /// `rawPath` is the request target's path as sent, still percent-encoded, without the query.
    public func lookup(_ rawPath: String) -> Lookup {
        guard rawPath.hasPrefix("/") else { return .notFound }
        // Split before decoding, so that an encoded "/" (%2F) stays inside one name and is refused.
        let raws = rawPath.split(separator: "/", omittingEmptySubsequences: true)
        var names: [String] = []
        for raw in raws {
            guard let name = raw.removingPercentEncoding, Self.isPlainName(name) else { return .notFound }
            names.append(name)
        }
        let relative = names.joined(separator: "/")
        guard let found = contained(relative.isEmpty ? root : root + "/" + relative) else { return .notFound }
        if Self.isFolder(found) {
            // Rebuilt from the checked names: "//host" must not become a redirect to another site.
            if !rawPath.hasSuffix("/") { return .redirect("/" + raws.joined(separator: "/") + "/") }
            guard let index = contained(found + "/index.html"), Self.isRegularFile(index) else { return .notFound }
            return .file(URL(fileURLWithPath: index), contentType: Self.contentType(of: index))
        }
        guard Self.isRegularFile(found) else { return .notFound }
        return .file(URL(fileURLWithPath: found), contentType: Self.contentType(of: found))
    }

    /// The Content-Type for a file name; text types say their charset, since every text file
    /// OrderPress writes is UTF-8.
    public static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "xml": "application/xml; charset=utf-8"
        case "json": "application/json"
        case "csv": "text/csv; charset=utf-8"
        case "md": "text/markdown; charset=utf-8"
        case "txt": "text/plain; charset=utf-8"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }

    /// The real path of `path` when it exists and lies inside the site folder and outside the state folder.
    private func contained(_ path: String) -> String? {
        guard let real = Self.realPath(path) else { return nil }
        guard real == root || real.hasPrefix(root + "/") else { return nil }
        guard real != state, !real.hasPrefix(state + "/") else { return nil }
        return real
    }

    /// A name of one file or folder: not empty, not `.`/`..` or hidden, no separator of any system.
    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\")
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}
