import Crypto
import Foundation
import OrderPressSupport

/// The last good copy of each URL source in `<state>/cache`: `<name>.body`, and `<name>.meta.json`
/// saying when and from where it was fetched. It lets `refresh_minutes` save requests, `--offline`
/// build without the network, and a failing rates feed fall back on the rates it gave last.
package struct SourceCache: Sendable {
    package var folder: URL

    /// A cached body and the moment it was fetched (by the run's clock).
    struct Entry: Sendable, Equatable {
        package var body: Data
        package var fetchedAt: Date
        /// The digest of the pages this copy was made from (a sheet's copy keeps no secret and no
        /// unmapped column, so its own bytes are not what was fetched); nil when the metadata does
        /// not hold it or was written for other bytes than the body's.
        package var pages: SourceFingerprint.Pages.Digest? = nil
    }

    package init(state: URL) {
        folder = state.appendingPathComponent("cache", isDirectory: true)
    }

    func bodyURL(_ name: String) -> URL { folder.appendingPathComponent("\(name).body") }
    func metaURL(_ name: String) -> URL { folder.appendingPathComponent("\(name).meta.json") }

    /// The copy of source `name` fetched from `location`; nil when there is none, or when it came
    /// from another address (the configuration changed since). Read as the build writes it: never
    /// through a link and only from a regular file; its metadata is bounded, its body not (each page of
    /// it was bounded when it was fetched).
    func read(_ name: String, location: String) -> Entry? {
        guard let metaData = try? BoundedFile.read(metaURL(name).path, limit: 1 << 16, followLinks: false),
            let meta = (try? JSONSerialization.jsonObject(with: metaData)) as? [String: Any],
            meta["location"] as? String == location,
            let stamp = meta["fetched_at"] as? String, let fetchedAt = Timestamp.parseUTC(stamp),
            // No bound but the file's size: a paged sheet's copy holds every page, each up to the HTTP bound.
            let body = try? BoundedFile.read(bodyURL(name).path, limit: 1 << 40, followLinks: false)
        else { return nil }
        var pages: SourceFingerprint.Pages.Digest?
        if let text = meta["pages"] as? String, let digest = SourceFingerprint.Pages.Digest(text: text),
            meta["body_sha256"] as? String == Self.sha256(body)
        {
            pages = digest
        }
        return Entry(body: body, fetchedAt: fetchedAt, pages: pages)
    }

    private static func sha256(_ body: Data) -> String {
        Hex.lowercase(SHA256.hash(data: body))
    }

    /// Replaces the copy of `name`, body first: a run killed in between leaves a body newer than its
    /// meta says, which at worst costs one request more. A body the cache holds already is not written
    /// again, nor its meta unless `renew` (the fetch time decides when to ask again, `refresh_minutes`):
    /// a rerun on unchanged input writes no file, the state's included. Its meta then keeps the time
    /// those bytes were first fetched.
    /// `pages`: the digest of what was fetched, when `body` is a sheet's copy rather than those bytes.
    package func write(
        _ body: Data, name: String, location: String, fetchedAt: Date, renew: Bool = true, pages: SourceFingerprint.Pages.Digest? = nil
    ) throws(OutputError) {
        let root = folder.deletingLastPathComponent()
        // Read back only when the sizes agree: a sheet of a million rows is a hundred MB.
        var status = stat()
        let same = lstat(bodyURL(name).path, &status) == 0 && Int(status.st_size) == body.count
            && (try? AtomicFile.contents(of: bodyURL(name), below: root)).flatMap { $0 } == body
        if same, !renew, let kept = read(name, location: location), kept.pages == pages { return }
        if !same { try AtomicFile.write(body, to: bodyURL(name), below: root, durable: true) }
        var fields = "\"fetched_at\": \"\(Timestamp.iso8601(fetchedAt))\", \"location\": \(JSONEscaper.quoted(location))"
        if let pages { fields += ", \"pages\": \"\(pages.text)\", \"body_sha256\": \"\(Self.sha256(body))\"" }
        let meta = "{\(fields)}\n"
        try AtomicFile.write(Data(meta.utf8), to: metaURL(name), below: root, durable: true)
    }
}
