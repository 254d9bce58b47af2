import Foundation
import Testing

@testable import OrderPressConfig
@testable import OrderPressPipeline
import OrderPressTestSupport

/// A large site's publish session, let go after the unchanged-rerun check, is opened again to publish:
/// the same last manifest, and no thread or crash left behind when the build stops before.
@Suite struct HeadStartTests {
    static func builtSample() throws -> (site: URL, output: Configuration.OutputPaths) {
        let site = try TestSupport.sampleSite()
        let built = try UnchangedRerunTests.build(site)
        #expect(built.status == 0, "\(built.stderr)")
        return (site, try ConfigurationLoader.load(from: site.appendingPathComponent("orderpress.toml")).output)
    }

    /// Reopened ahead (while the orders are aggregated) or when render takes it; or never set aside.
    @Test(arguments: [(0, true), (0, false), (Int.max, true)])
    func aSessionSetAsideIsOpenedAgainTheSame(setAsideFrom: Int, reopenedAhead: Bool) throws {
        let (site, output) = try Self.builtSample()
        defer { try? FileManager.default.removeItem(at: site) }
        let kept = try HeadStart(output: output, dryRun: true).takeSession()
        let headStart = HeadStart(output: output, dryRun: true, setAsideFrom: setAsideFrom)
        headStart.setAsideWhenLarge()
        if reopenedAhead { headStart.reopen() }
        let session = try headStart.takeSession()
        #expect(session.recordedCount > 0)
        #expect(session.recordedCount == kept.recordedCount)
        #expect(session !== kept)
    }

    /// A build that fails between setting the session aside and publishing lets go of its head start
    /// (which once waited for the session it no longer held: a crash), and the next one opens the same.
    @Test func aHeadStartWhoseSessionWasSetAsideEndsWithoutIt() throws {
        let (site, output) = try Self.builtSample()
        defer { try? FileManager.default.removeItem(at: site) }
        var headStart: HeadStart? = HeadStart(output: output, dryRun: true, setAsideFrom: 0)
        headStart?.setAsideWhenLarge()
        headStart = nil
        #expect(try HeadStart(output: output, dryRun: true).takeSession().recordedCount > 0)
    }
}
