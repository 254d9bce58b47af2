/// The sources' health (`SourceHealth`) is told of a build's end while the build still holds the lock:
/// two builds never write `failing.json`, `status.json` or the stale notice at once, and a build that
/// exits 75 (another holds the lock) touches none of them. A dry run tells it nothing.
extension Pipeline {
    /// Runs the fetch step; a source that cannot be read (exit 69) is recorded as failing, and once it
    /// has failed for long enough the pages get the stale notice. The failure is thrown on as it was.
    func notingFailure<T>(_ options: Options, _ body: () async throws(StepFailure) -> T) async throws(StepFailure) -> T {
        do {
            return try await body()
        } catch {
            if !options.dryRun, let health, error.step == .fetch, error.exitStatus == .unavailable {
                // A record that cannot be written: the failure is said again next run, nothing worse.
                health.said.started = (try? health.failed(source: (error.underlying as? SourceError)?.source, reason: error.description, now: clock.now)) ?? true
            }
            throw error
        }
    }

    /// After a build that succeeded: `status.json` says `ok`, and a failure that was going on is over.
    /// A file that cannot be written is a problem to report, not a failed build: the site is published.
    func notingSuccess(_ options: Options) -> [String] {
        guard !options.dryRun, let health else { return [] }
        do {
            try health.succeeded()
            return []
        } catch {
            return ["status.json: \(error.description)"]
        }
    }
}
