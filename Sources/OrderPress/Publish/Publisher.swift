import Foundation

/// Puts a rendered site in place: only files whose bytes change are written, each atomically;
/// files of pages that no longer exist are removed after the new ones are in place.
public struct Publisher: Sendable {
    public var output: Configuration.OutputPaths

    public init(output: Configuration.OutputPaths) {
        self.output = output
    }

    var manifestURL: URL { output.state.appendingPathComponent(Manifest.fileName) }

    /// Compares the rendered files with what is on disk; reads, never writes. A link where a page goes
    /// is planned as a write, which `apply` then refuses. A manifest that cannot be read is an error:
    /// ignoring it would leave every stale page in place for good.
    public func plan(_ site: RenderedSite) throws(StepFailure) -> PublishPlan {
        var writes: [PublishPlan.Write] = []
        var unchanged = 0
        for (root, files) in [(output.markdown, site.markdown), (output.site, site.site)] {
            for file in files {
                let url = root.appendingPathComponent(file.path)
                if (try? AtomicFile.contents(of: url, below: root)) == file.contents {
                    unchanged += 1
                } else {
                    writes.append(.init(url: url, root: root, contents: file.contents))
                }
            }
        }
        let manifest = Manifest(markdown: site.markdown.map(\.path), site: site.site.map(\.path))
        var removals: [PublishPlan.Removal] = []
        if let previous = try readManifest() {
            for (root, old, new) in [
                (output.markdown, previous.markdown, manifest.markdown), (output.site, previous.site, manifest.site),
            ] {
                let current = Set(new)
                for path in old where !current.contains(path) && Self.isSafe(path) {
                    let url = root.appendingPathComponent(path)
                    // lstat: a link left where a page was is still something to remove (and refuse).
                    var status = stat()
                    if lstat(url.path, &status) == 0 { removals.append(.init(url: url, root: root)) }
                }
            }
        }
        return PublishPlan(writes: writes, unchanged: unchanged, removals: removals, manifest: manifest)
    }

    /// Writes, then removes, then records what was published.
    public func apply(_ plan: PublishPlan) throws(OutputError) {
        for root in [output.markdown, output.site, output.state] {
            AtomicFile.removeLeftovers(below: root)
        }
        for write in plan.writes {
            try AtomicFile.write(write.contents, to: write.url, below: write.root)
            TestHook.reached(.afterWrite)
        }
        for removal in plan.removals {
            try AtomicFile.remove(removal.url, below: removal.root)
        }
        try AtomicFile.writeIfChanged(JSONOutput.encode(plan.manifest), to: manifestURL, below: output.state, durable: true)
    }

    private func readManifest() throws(StepFailure) -> Manifest? {
        let path = manifestURL.standardizedFileURL.path
        let data: Data?
        do {
            data = try AtomicFile.contents(of: manifestURL, below: output.state)
        } catch {
            throw StepFailure(step: .publish, underlying: error)
        }
        guard let data else { return nil }
        guard let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else {
            throw StepFailure(
                step: .publish,
                underlying: DataError(
                    message: "\(path) cannot be read (it is not a list of published files this version understands); delete it and remove pages that no longer exist by hand, or empty the markdown and site folders, then build again"))
        }
        return manifest
    }

    /// A manifest entry is only ever a relative path inside its folder.
    static func isSafe(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.contains("\0")
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
    }
}
