@testable import OrderPressSupport
@testable import OrderPressPublish
import OrderPressTestSupport

extension PublishSession {
    /// What the pipeline does with a session once the files are written, for a build with no state to
    /// commit (`Pipeline.place`, then `complete` as `Pipeline.commit` does after the state's commit):
    /// `prepare`, `place`, `abandon` on failure, `complete`. Production composes these itself; the tests
    /// that publish files without a pipeline use this.
    func finish() throws(OutputError) -> PublishReport {
        do {
            try prepare(inputs: nil)
            try place()
        } catch {
            abandon()
            throw error
        }
        return complete()
    }
}
