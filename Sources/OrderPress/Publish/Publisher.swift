import Foundation

/// Puts a rendered site in place: only files whose bytes change are written, each atomically;
/// files of pages that no longer exist are removed after the new ones are in place.
public struct Publisher: Sendable {
    public var output: Configuration.OutputPaths

    public init(output: Configuration.OutputPaths) {
        self.output = output
    }

    var manifestURL: URL { output.state.appendingPathComponent(Manifest.fileName) }

    /// Compares the rendered files with what is on disk; reads, never writes.
    public func plan(_ site: RenderedSite) -> PublishPlan {
        var writes: [PublishPlan.Write] = []
        var unchanged = 0
        for (root, files) in [(output.markdown, site.markdown), (output.site, site.site)] {
            for file in files {
                let url = root.appendingPathComponent(file.path)
                if let existing = FileManager.default.contents(atPath: url.path), existing == file.contents {
                    unchanged += 1
                } else {
                    writes.append(.init(url: url, contents: file.contents))
                }
            }
        }
        let manifest = Manifest(markdown: site.markdown.map(\.path), site: site.site.map(\.path))
        var removals: [URL] = []
        if let previous = readManifest() {
            for (root, old, new) in [
                (output.markdown, previous.markdown, manifest.markdown), (output.site, previous.site, manifest.site),
            ] {
                let current = Set(new)
                for path in old where !current.contains(path) && Self.isSafe(path) {
                    let url = root.appendingPathComponent(path)
                    if FileManager.default.fileExists(atPath: url.path) { removals.append(url) }
                }
            }
        }
        return PublishPlan(writes: writes, unchanged: unchanged, removals: removals, manifest: manifest)
    }

    /// Writes, then removes, then records what was published.
    public func apply(_ plan: PublishPlan) throws(OutputError) {
        removeLeftovers()
        for write in plan.writes {
            try AtomicFile.write(write.contents, to: write.url)
            TestHook.reached(.afterWrite)
        }
        for url in plan.removals {
            unlink(url.path)
        }
        try AtomicFile.writeIfChanged(JSONOutput.encode(plan.manifest), to: manifestURL, durable: true)
    }

    /// Deletes temporary files that a killed build left behind; they are hidden and never pages.
    private func removeLeftovers() {
        for root in [output.markdown, output.site, output.state] {
            guard let files = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let path as String in files where (path as NSString).lastPathComponent.contains(AtomicFile.temporaryMarker) {
                unlink(root.appendingPathComponent(path).path)
            }
        }
    }

    private func readManifest() -> Manifest? {
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }

    /// A manifest entry is only ever a relative path inside its folder.
    private static func isSafe(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains { $0 == ".." || $0 == "." }
    }
}
