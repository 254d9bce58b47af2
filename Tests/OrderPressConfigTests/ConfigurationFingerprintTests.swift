import Foundation
import Testing

@testable import OrderPressConfig
import OrderPressTestSupport

/// A configuration's fingerprint (what a rerun compares to keep unchanged rows' records) is the same for
/// the same settings in any run, and changes with any setting.
@Suite struct ConfigurationFingerprintTests {
    static let toml = TestSupport.minimalTOML + "\n[labels]\ntotal = \"Sum\"\norders = \"Orders\"\n[minor_units]\nTWD = 0\nJPY = 0\n"

    @Test func theSameSettingsHaveTheSameFingerprintWhateverTheirOrderOrTheFolders() throws {
        let folder = TestSupport.temporaryFolder()
        let before = try TestSupport.configuration(Self.toml, in: folder)
        // Folders that exist are URLs with a "/" at the end: the first build makes the output folders.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("output/state"), withIntermediateDirectories: true)
        let after = try TestSupport.configuration(Self.toml, in: folder)
        #expect(before.fingerprint == after.fingerprint)
        var reordered = before
        reordered.labels = [:]
        reordered.labels["orders"] = "Orders"
        reordered.labels["total"] = "Sum"
        reordered.notify.print = Set(before.notify.print.reversed())
        #expect(reordered.fingerprint == before.fingerprint)
    }

    @Test(arguments: ["label", "minor unit", "time zone", "column"])
    func anySettingChangesIt(_ change: String) throws {
        let before = try TestSupport.configuration(Self.toml)
        var after = before
        switch change {
        case "label": after.labels["total"] = "Total"
        case "minor unit": after.minorUnits["JPY"] = 2
        case "time zone": after.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        default: after.orderColumns.note = "remark"
        }
        #expect(after.fingerprint != before.fingerprint)
    }
}
