import Foundation
import OrderPressConfig
import OrderPressSupport

/// Puts a rendered site in place, in batches, through a `PublishSession`: only files whose bytes change
/// are written, each atomically; files of pages that no longer exist are removed after the new ones
/// are in place.
public struct Publisher: Sendable {
    public var output: Configuration.OutputPaths
    /// Whether a batch is compared and written on several threads; off only to measure or test.
    var parallel = true

    public init(output: Configuration.OutputPaths) {
        self.output = output
    }

    var manifestURL: URL { output.state.appendingPathComponent(Manifest.fileName) }

    /// Reads what the last build published and starts publishing; a dry run reads, never writes. A
    /// manifest that cannot be read is an error: ignoring it would leave every stale page in place for good.
    public func begin(dryRun: Bool) throws(PublishFailure) -> PublishSession {
        let session = try open(dryRun: dryRun)
        session.sweepLeftovers()
        return session
    }

    /// `begin` without the sweep, which writes nothing: a build opens its session while the sources
    /// download, and sweeps once the steps that write in the state folder are done.
    package func open(dryRun: Bool) throws(PublishFailure) -> PublishSession {
        let previous = try readManifest()
        return PublishSession(publisher: self, previous: previous?.manifest, manifestModified: previous?.modified, dryRun: dryRun)
    }

    /// The manifest and its modification time (nanoseconds), or nil when there is none yet.
    private func readManifest() throws(PublishFailure) -> (manifest: Manifest, modified: Int64)? {
        let path = manifestURL.standardizedFileURL.path
        let read: (data: Data, status: stat)?
        do {
            read = try AtomicFile.contentsAndStatus(of: manifestURL, below: output.state, maxBytes: Manifest.maxBytes)
        } catch {
            throw PublishFailure(underlying: error)
        }
        guard let read else { return nil }
        let tooLarge = read.status.st_size > Manifest.maxBytes || read.data.count > Manifest.maxBytes
        guard !tooLarge, let manifest = Manifest.decode(read.data) else {
            throw PublishFailure(
                underlying: DataError(
                    message: "\(path) cannot be read (it is not a list of published files this version understands); delete it and remove pages that no longer exist by hand, or empty the markdown and site folders, then build again"))
        }
        return (manifest, Manifest.Entry.nanoseconds(read.status.st_mtim))
    }

    /// A manifest entry is only ever a relative path inside its folder.
    static func isSafe(_ path: String) -> Bool {
        ContainedPath.isPlain(path)
    }
}
