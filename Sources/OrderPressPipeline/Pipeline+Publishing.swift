import Foundation
import OrderPressDiff
import OrderPressPublish
import OrderPressReuse

/// The end of a build, all or nothing: the site's files are put in place only once every one is written and
/// the state's save transaction is written too (the state database opened and written to, short of its
/// commit), and put back should the commit fail. A failed run leaves the site, the Markdown, the snapshot
/// and the history as they were; a killed one leaves the unfinished-run marker, and the next run repairs.
extension Pipeline {
    /// Ends publishing (`PublishSession.prepare`), waits for the save's transaction to be written, and puts
    /// the files in place. Whatever fails, what the session wrote is removed and the save abandoned.
    func place(_ session: PublishSession, saving: PendingSave?, inputs: BuildInputs) throws(StepFailure) {
        do throws(StepFailure) {
            do {
                try session.prepare(inputs: inputs.fingerprint)
            } catch {
                throw StepFailure(step: .publish, underlying: error)
            }
            // A state that cannot be written (a read-only database, a full disk) fails here, before any
            // file is in place.
            do {
                try saving?.ready()
            } catch {
                throw StepFailure(step: .snapshot, underlying: error)
            }
            do {
                try session.place()
            } catch {
                throw StepFailure(step: .publish, underlying: error)
            }
        } catch {
            saving?.abandon()
            session.abandon()
            throw sayingIfUnrestored(error, session)
        }
    }

    /// `error`, saying also that the site could not be put back when that is so; `status.json` then says
    /// so too, to whoever reads the site (a disk failing that much may refuse it as well: nothing worse).
    private func sayingIfUnrestored(_ error: StepFailure, _ session: PublishSession) -> StepFailure {
        guard session.leftUnrestored else { return error }
        let unrestored = UnrestoredSite(cause: error.underlying)
        try? health?.unrestored(reason: unrestored.statusReason, now: clock.now)
        return StepFailure(step: error.step, underlying: unrestored)
    }

    /// Commits the save; when that fails, puts the old files back before it throws.
    func commit(_ session: PublishSession, saving: PendingSave) throws(StepFailure) -> PublishReport {
        do {
            try saving.commit()
        } catch {
            session.rollBack()
            session.abandon()
            throw sayingIfUnrestored(StepFailure(step: .snapshot, underlying: error), session)
        }
        return session.complete()
    }
}
