import Foundation
import Testing

@testable import OrderPressFetch
import OrderPressTestSupport

/// The sources' fingerprint tells apart any two sets of bytes, however a paged sheet's bytes are cut.
@Suite struct SourceFingerprintTests {
    static func fingerprint(pages: [String], rates: String = "{}") -> String {
        var hashed = SourceFingerprint.Pages()
        for page in pages { hashed.add(Data(page.utf8)) }
        var fingerprint = SourceFingerprint()
        fingerprint.add(source: "orders", format: "sheetdb", pages: hashed)
        fingerprint.add(source: "rates", format: "rter", parts: [Data(rates.utf8)])
        return fingerprint.finalize()
    }

    /// The fingerprint is kept in the state and compared by the next run, another process: it is the
    /// same in every process (a per-process seed, as Swift's `Hasher` has, would make every rerun a
    /// full build), so it is compared with the value a run once gave rather than with itself.
    @Test func samePagesSameFingerprint() {
        #expect(Self.fingerprint(pages: ["[1,2]", "[3]"]) == "67b636dc5df70f92b2e7eb6ace953543579d89592516ac4165a617ce3c80cb91")
    }

    @Test(arguments: [
        ["[1,2]", "[4]"], ["[1,", "2][3]"], ["[1,2][3]"], ["[1,2]", "[3]", ""], ["", "[1,2]", "[3]"], ["[1,2]"],
    ])
    func anyOtherPagesAnotherFingerprint(pages: [String]) {
        #expect(Self.fingerprint(pages: pages) != Self.fingerprint(pages: ["[1,2]", "[3]"]))
    }

    @Test func theRatesCount() {
        #expect(Self.fingerprint(pages: ["[1]"], rates: "{\"a\":1}") != Self.fingerprint(pages: ["[1]"]))
    }
}
