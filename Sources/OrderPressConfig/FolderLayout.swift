import Foundation

/// Checks where the output folders lie, on the real file system: each folder OrderPress writes must be
/// its own. The state (snapshot with its salt, cached sources) must never be published or committed,
/// and the site and Markdown must never carry the configuration or a local source (edit codes in plain
/// text, the sheet's API address).
package enum FolderLayout {
    /// A folder or file as configured, with the key that names it.
    struct Place {
        package var key: String
        var url: URL
    }

    /// Throws for the first problem, naming both keys: a folder that is `/` or the home folder; two
    /// output folders that are the same, or one inside the other; a published folder holding the
    /// configuration or a source file.
    static func check(
        markdown: Place, site: Place, state: Place, configuration: URL, sources: [Place], file: String
    ) throws(ConfigurationError) {
        let folders = [state, markdown, site]
        let home = ProcessInfo.processInfo.environment["HOME"].map { realPath(URL(fileURLWithPath: $0)) }
        for folder in folders {
            let path = realPath(folder.url)
            if path == "/" {
                throw .invalid(folder.key, "is the file-system root; give it a folder of its own", in: file)
            }
            if path == home {
                throw .invalid(folder.key, "is your home folder (\(path)); give it a folder of its own", in: file)
            }
        }
        // Each folder has its own list of published files, clean-up and (for the Markdown) git commit;
        // overlapping folders would let one act on the other's files, and publish or commit the state.
        for (index, first) in folders.enumerated() {
            for second in folders[(index + 1)...] {
                guard let relation = relation(first.url, second.url) else { continue }
                let why =
                    first.key == state.key || second.key == state.key
                    ? "the snapshot and cached sources would be published or committed"
                    : "each would publish, commit or clean up the other's files"
                throw .invalid(first.key, "\(relation) '\(second.key)'; \(why): give each a folder of its own", in: file)
            }
        }
        let secrets = [Place(key: "the configuration file", url: configuration)] + sources
        for folder in [markdown, site] {
            for secret in secrets where realPath(secret.url).hasPrefix(realPath(folder.url) + "/") {
                let what = secret.key == "the configuration file" ? secret.key : "the file of '\(secret.key)'"
                throw .invalid(
                    folder.key,
                    "(\(realPath(folder.url))) holds \(what) (\(realPath(secret.url))), which would be published or committed; move one of them",
                    in: file)
            }
        }
    }

    /// How folder `a` lies relative to folder `b`, in words; nil when apart.
    private static func relation(_ a: URL, _ b: URL) -> String? {
        let (first, second) = (realPath(a), realPath(b))
        if first == second { return "(\(first)) is the same folder as" }
        if first.hasPrefix(second + "/") { return "(\(first)) is inside" }
        if second.hasPrefix(first + "/") { return "(\(first)) contains" }
        return nil
    }

    /// The standardised path with every symbolic link resolved in the part that exists; the rest,
    /// not yet created, is appended as written. The configured folders may be links themselves.
    package static func realPath(_ url: URL) -> String {
        var existing = url.standardizedFileURL.path
        var missing: [String] = []
        while true {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                if missing.isEmpty { return base }
                return ([base == "/" ? "" : base] + missing.reversed()).joined(separator: "/")
            }
            guard existing != "/", !existing.isEmpty else { return url.standardizedFileURL.path }
            missing.append((existing as NSString).lastPathComponent)
            existing = (existing as NSString).deletingLastPathComponent
        }
    }
}
