import Foundation
import OrderPressCatalogue
import OrderPressFetch
import OrderPressNotify
import OrderPressSupport

/// The sources' health (`SourceHealth`) is told of a build's end while the build still holds the lock:
/// two builds never write `failing.json`, `status.json` or the stale notice at once, and a build that
/// exits 75 (another holds the lock) touches none of them. A dry run tells it nothing.
extension Pipeline {
    /// Runs the fetch step; a source that cannot be read (exit 69) is recorded as failing, and once it
    /// has failed for long enough the pages get the stale notice. The failure is thrown on as it was.
    func notingFailure<T>(_ options: Options, labels: Labels, _ body: () async throws(StepFailure) -> T) async throws(StepFailure) -> T {
        do {
            return try await body()
        } catch {
            if !options.dryRun, let health, error.step == .fetch, error.exitStatus == .unavailable {
                let source = (error.underlying as? SourceError)?.source
                // A record that cannot be written: the failure is said again next run, nothing worse.
                let started = (try? health.failed(source: source, reason: error.description, now: clock.now, labels: labels)) ?? true
                health.said.started = started
                if started {
                    tell(NewsText(labels: labels, baseURL: configuration.baseURL).failing(source: source, since: shownTime(clock.now)))
                }
            }
            throw error
        }
    }

    /// After the diff step failed: a build the mass-deletion guard refused is recorded as blocked
    /// (`status.json`, and the stale notice once it has lasted), and the first refusal is news, with how
    /// to proceed.
    func noteRefusal(_ error: StepFailure, _ options: Options, labels: Labels) {
        guard !options.dryRun, let health, let refusal = (error.underlying as? DataError)?.refusal else { return }
        let reason = "the mass-deletion guard refused to publish: \(refusal.lost) of the last run's \(refusal.previous) orders are no "
            + "longer valid orders; run again with --accept-deletions if that is right, or restore the rows in the sheet"
        if (try? health.blocked(reason: reason, now: clock.now, labels: labels)) ?? true {
            tell(NewsText(labels: labels, baseURL: configuration.baseURL).blocked(lost: refusal.lost, of: refusal.previous, reason: reason))
        }
    }

    /// News the pipeline made itself (a failing or recovered source, a refused build): kept in the
    /// outbox (flushed to disk) under the build's lock for the webhook, and told to the command for
    /// `--quiet`, when `[notify] print` lists its kind.
    func tell(_ item: NewsItem) {
        guard configuration.notify.print.contains(item.kind.setting), let health else { return }
        health.said.news.append(item)
        _ = try? outbox?.add([item])
    }

    /// A time as the pages show it, with its zone.
    func shownTime(_ date: Date) -> String {
        "\(Timestamp.display(date, timeZone: configuration.timeZone)) (\(configuration.timeZone.identifier))"
    }

    /// After a build that succeeded: `status.json` says `ok`, and a failure that was going on is over.
    /// A file that cannot be written is a problem to report, not a failed build: the site is published.
    func notingSuccess(_ options: Options, labels: Labels) -> [String] {
        guard !options.dryRun, let health else { return [] }
        do {
            if try health.succeeded() != nil, let (source, since) = health.said.recoveredFrom {
                let shown = Timestamp.parseUTC(since).map(shownTime) ?? since
                tell(NewsText(labels: labels, baseURL: configuration.baseURL).recovered(source: source, since: shown))
            }
            return []
        } catch {
            return ["status.json: \(error.description)"]
        }
    }
}
