import Foundation
import OrderPressConfig
import OrderPressDiff
import OrderPressPublish
import OrderPressSupport
import OrderPressValidate

/// What the fetch step starts on threads of their own for the steps after it, and how each waits for it:
/// the publish session is opened while the sources download, and the state is read while the sheet is
/// parsed and the rows validated. No thread of it outlives the build, failed or not (see `deinit`).
final class HeadStart {
    /// The last manifest read and its files located, on the other core while the sources download and
    /// are fingerprinted on this one: an unchanged rerun needs them to see its files intact, any other
    /// build to publish. Opening writes nothing.
    private var opening: Background<Result<PublishSession, StepFailure>>
    private let open: @Sendable () -> Result<PublishSession, StepFailure>
    private var sessionTaken = false
    /// Whether the session was let go after the unchanged-rerun check (`setAsideWhenLarge`).
    private var setAside = false
    private let setAsideFrom: Int
    /// The last snapshot's index and the history: the diff needs them, and at a million orders reading
    /// them is half a second. A failure is left for the diff, which reads again and says what went wrong.
    /// Made with them, what validation reads of the last snapshot (`KnownRows`).
    private var reading: Background<KnownRows?>?
    private var knownTaken = false

    init(output: Configuration.OutputPaths, dryRun: Bool, setAsideFrom: Int = HeadStart.setAsideFrom) {
        self.setAsideFrom = setAsideFrom
        open = {
            Result { () throws(StepFailure) in
                do throws(PublishFailure) { return try Publisher(output: output).open(dryRun: dryRun) } catch { throw StepFailure(step: .publish, underlying: error) }
            }
        }
        opening = Background(open)
    }

    /// From this many files in the last manifest on, a build that is not an unchanged rerun lets the opened
    /// session go once the sheet is parsed and opens it again to render: a million orders' entries
    /// (two lists of them, by path and in order), held through validation and the diff, where a rerun's
    /// peak is, took the rerun of a Google Form's sheet over the 1.5 GB limit (docs/benchmarks.md).
    /// Below it the manifest is small: kept, and no time spent reading it again.
    static let setAsideFrom = 100_000

    /// Lets the session go, when opened and large (see `setAsideFrom`); `reopen` (or else `takeSession`)
    /// opens it again.
    func setAsideWhenLarge() {
        guard case .success(let session) = opening.value, session.recordedCount >= setAsideFrom else { return }
        setAside = true
        // Freed aside, its last reference this one.
        Allocator.release(opening.take())
    }

    /// Starts reading the state (`StateStore` keeps what it read for the diff), and what validation reads
    /// of its last snapshot with the state folder's key, when it has one (`SecretKey`); unless the last
    /// build read `readStateLateFrom` rows or more (`rows`): then the diff reads the state, and validation
    /// makes every row in full (nothing is known of the last snapshot while it validates).
    func readState(_ store: StateStore, folder: URL, rows: Int = 0) {
        guard rows < Self.readStateLateFrom else { return }
        reading = Background { [store] in
            guard let index = (try? store.contents())?.snapshot, let key = try? SecretKey.load(state: folder, create: false) else { return nil }
            return KnownRows(index, key: key)
        }
    }

    /// What validation reads of the last snapshot, once the state is read; no longer held here.
    func takeKnownRows() -> KnownRows? {
        guard let reading, !knownTaken else { return nil }
        knownTaken = true
        return reading.take()
    }

    /// From this many rows on, the state is read by the diff, not beside parsing and validation: a million
    /// records' index and chains (some 180 MB) held beside the sheet's cells and the rows being validated
    /// took a rerun's peak past 1 GiB, for half a second more on a rerun of some tens of seconds.
    static let readStateLateFrom = 250_000

    /// Waits until the state is read, when it is being read: the diff reads it next.
    func stateRead() {
        if !knownTaken { _ = reading?.value }
    }

    /// The publish session once opened, still held here: for the unchanged-rerun check.
    func openedSession() throws(StepFailure) -> PublishSession {
        try opening.value.get()
    }

    /// Starts opening again a session set aside (`setAsideWhenLarge`), on the other core while the orders
    /// are aggregated: opened when render takes it, it held up a large rerun (docs/benchmarks.md).
    func reopen() {
        guard setAside else { return }
        setAside = false
        opening = Background(open)
    }

    /// The publish session, no longer held here (the build frees it aside when it is done: its manifests
    /// are 240,000 entries at a million orders), swept of the temporary files a killed run left. Swept only
    /// now: the diff writes in the state folder, where the sweep removes temporary files.
    func takeSession() throws(StepFailure) -> PublishSession {
        sessionTaken = true
        reopen()
        let session = try opening.take().get()
        session.sweepLeftovers()
        return session
    }

    // Not left opening the session or reading the state after a failed step either.
    deinit {
        if !sessionTaken, !setAside { _ = opening.value }
        stateRead()
    }
}
