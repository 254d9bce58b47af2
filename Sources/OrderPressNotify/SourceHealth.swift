import Foundation
import OrderPressCatalogue
import OrderPressConfig
import OrderPressFetch
import OrderPressPublish
import OrderPressSupport

/// Whether the sources have been failing, remembered across runs, so that a cron run says a failure
/// once when it starts and once when it ends, not every five minutes; `status.json` in the site, which
/// says the same to anyone who reads the site; and, once the sheet has failed for longer than
/// `[notify] stale_after_minutes`, the "not updated since …" notice on the index and group pages
/// (`StaleNotice`).
///
/// The record (`failing.json` in the state folder) is treated like a source cache: a failing run may
/// write it, while the snapshot and history stay exactly as they were. `status.json` is a file of the
/// site outside the manifest, written by the first successful build (`{"state": "ok"}`) and rewritten
/// only when what it says changes: while a source stays down, and on every healthy rerun, nothing is
/// written. A failing first run creates no site folder and so no `status.json`. The pipeline calls it
/// while it holds the build lock (`Pipeline.health`).
public struct SourceHealth: Sendable {
    public var state: URL
    public var site: URL
    /// For the stale notice: the site's folders, language, labels, time zone and `[notify]`. Without it,
    /// no notice is added.
    package var configuration: Configuration?
    /// What the last run found, for the command to say once the pipeline has returned.
    public let said = Said()

    static let recordName = "failing.json"
    static let statusName = "status.json"

    public init(state: URL, site: URL) {
        self.state = state
        self.site = site
    }

    public init(_ configuration: Configuration) {
        self.init(state: configuration.output.state, site: configuration.output.site)
        self.configuration = configuration
    }

    /// What a run found, set from within the pipeline, read by the command afterwards.
    public final class Said: @unchecked Sendable {
        private let lock = NSLock()
        private var _started: Bool?
        private var _recovered: String?
        private var _news: [NewsItem] = []

        /// News the pipeline made of a source's failure or recovery, or of the guard's refusal.
        public var news: [NewsItem] {
            get { lock.withLock { _news } }
            set { lock.withLock { _news = newValue } }
        }

        /// After a failing source: whether the failure started with this run (and is to be said).
        public var started: Bool? {
            get { lock.withLock { _started } }
            set { lock.withLock { _started = newValue } }
        }

        private var _recoveredFrom: (source: String?, since: String)?

        /// After a successful build that ended a failure: which source, failing since when.
        public var recoveredFrom: (source: String?, since: String)? {
            get { lock.withLock { _recoveredFrom } }
            set { lock.withLock { _recoveredFrom = newValue } }
        }

        /// After a successful build that ended a failure: the line to say.
        public var recovered: String? {
            get { lock.withLock { _recovered } }
            set { lock.withLock { _recovered = newValue } }
        }
    }

    /// A failure as the state keeps it: since when, which source, its one-line message, and the notice
    /// put on the pages, if any (so that a later run can take that very text out again).
    struct Record: Codable, Equatable {
        package var since: String
        package var source: String?
        package var reason: String
        var notice: Notice?
        /// True while the mass-deletion guard refuses every build (the sources work).
        package var blocked: Bool?
    }

    struct Notice: Codable, Equatable {
        var markdown: String
        var html: String
    }

    /// `status.json`: `{"state": "ok"}`, or `{"reason": …, "since": …, "state": "failing"}` (or `"blocked"`,
    /// the reason saying what to do).
    struct Status: Codable, Equatable {
        var state: String
        package var since: String?
        package var reason: String?
    }

    var recordURL: URL { state.appendingPathComponent(Self.recordName) }
    var statusURL: URL { site.appendingPathComponent(Self.statusName) }

    /// A run whose sources failed with `reason` (already secret-free: source messages name a source by its
    /// `SourceDescription`). True when this failure starts here, and is to be said. Once the failure
    /// is older than `stale_after_minutes` (by `now`, the run's clock), the pages get the stale notice, in
    /// the site's words (`labels`).
    @discardableResult
    package func failed(source: String?, reason: String, now: Date, labels: Labels) throws(OutputError) -> Bool {
        try note(Record(since: "", source: source, reason: Self.redacted(reason), notice: nil), now: now, labels: labels)
    }

    /// A build the mass-deletion guard refused: `status.json` says `blocked`, with since when and
    /// `reason` (what to do, no address); once that lasts longer than `stale_after_minutes`, the pages
    /// get the stale notice. True when the refusals start here.
    @discardableResult
    package func blocked(reason: String, now: Date, labels: Labels) throws(OutputError) -> Bool {
        try note(Record(since: "", source: nil, reason: Self.redacted(reason), notice: nil, blocked: true), now: now, labels: labels)
    }

    /// A run whose failed publish could not put every file back (`UnrestoredSite`): `status.json` says
    /// `failing`, since `now`, with `reason` (redacted), until the next successful build, which repairs the
    /// site, says `ok` again. The sources worked: no record, no stale notice, nothing to say when it ends.
    public func unrestored(reason: String, now: Date) throws(OutputError) {
        try writeStatus(Status(state: "failing", since: Timestamp.iso8601(now), reason: Self.redacted(reason)))
    }

    /// Records a failure or a refusal (`new`, its `since` filled in here) and writes `status.json` and the
    /// notice; a failure that follows a refusal (or the other way round) starts afresh.
    private func note(_ new: Record, now: Date, labels: Labels) throws(OutputError) -> Bool {
        let known = record()
        let continuing = known.flatMap { $0.blocked == new.blocked ? $0 : nil }
        var record = new
        record.since = continuing?.since ?? Timestamp.iso8601(now)
        record.notice = known?.notice
        try writeStatus(Status(state: record.blocked == true ? "blocked" : "failing", since: record.since, reason: record.reason))
        if let configuration, let minutes = configuration.notify.staleAfterMinutes, let since = Timestamp.parseUTC(record.since),
            now.timeIntervalSince(since) > Double(minutes) * 60
        {
            let notice = StaleNotice(configuration: configuration, labels: labels, since: since, blocked: record.blocked == true)
            let earlier = known?.notice.map { StaleNotice(configuration.output, markdown: $0.markdown, html: $0.html) }
            try notice.apply(replacing: earlier)
            record.notice = Notice(markdown: notice.markdownBlock, html: notice.htmlBlock)
        }
        if record != known {
            try AtomicFile.createFolder(state)
            try AtomicFile.write(JSONOutput.encode(record), to: recordURL, below: state)
        }
        said.started = continuing == nil
        return continuing == nil
    }

    /// A build that succeeded: `status.json` says `ok` (written by the first build, and again only when it
    /// said otherwise). When the sources had been failing, the record is cleared and the line to say is
    /// returned ("orders source works again (failing since …)"). The build itself rendered the pages
    /// again, without the stale notice.
    @discardableResult
    public func succeeded() throws(OutputError) -> String? {
        let known = record()
        try writeStatus(Status(state: "ok"))
        guard let known else { return nil }
        try AtomicFile.remove(recordURL, below: state)
        // The guard's refusals end with a build that publishes: no source was failing.
        guard known.blocked != true else { return nil }
        let what = known.source.map { "\($0) source works" } ?? "the sources work"
        let line = "\(what) again (failing since \(known.since))"
        said.recovered = line
        said.recoveredFrom = (known.source, known.since)
        return line
    }

    /// The record, if a failure is going on. One that cannot be read counts as none: at worst a failure
    /// is said once more.
    func record() -> Record? {
        guard let data = try? AtomicFile.contents(of: recordURL, below: state) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    /// Not in a site that was never published: a failing first run creates no site folder.
    private func writeStatus(_ status: Status) throws(OutputError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: site.path, isDirectory: &isFolder), isFolder.boolValue else { return }
        let data = JSONOutput.encode(status)
        guard (try? AtomicFile.contents(of: statusURL, below: site)) != data else { return }
        try AtomicFile.write(data, to: statusURL, below: site)
    }

    /// A second line of defence for a message that shows the site to every reader: any URL in it keeps
    /// only its scheme and host, any absolute path only its last part (`SourceDescription`).
    static func redacted(_ reason: String) -> String {
        SourceDescription.redacted(reason)
    }
}
