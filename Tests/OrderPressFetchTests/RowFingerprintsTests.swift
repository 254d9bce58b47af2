import Testing

@testable import OrderPressFetch
import OrderPressSupport
import OrderPressTestSupport

/// A row's fingerprint tells apart any two rows whose cells differ, however their bytes are cut into
/// cells, and is the same for the same cells in any process.
@Suite struct RowFingerprintsTests {
    static func fingerprint(_ cells: [String], headers: [String]? = nil) -> Digest128 {
        let table = SourceTable(
            name: "orders", headers: headers ?? cells.indices.map { "c\($0)" }, rows: [.init(number: 2, cells: cells)])
        return RowFingerprints(table)[0]
    }

    /// Kept in the state and compared by the next run, another process: a fixed value, not a per-process one.
    @Test func sameCellsSameFingerprint() {
        #expect(Self.fingerprint(["Ann", "12,50", ""]) == Digest128(high: 0x0cae_9522_4d8a_6991, low: 0xafe3_2277_f016_f925))
        #expect(Self.fingerprint(["Ann", "12,50", ""], headers: ["x", "y", "z"]) == Self.fingerprint(["Ann", "12,50", ""]))
    }

    @Test(arguments: [
        ["Ann", "12,50"], ["Ann12,50", "", ""], ["", "Ann", "12,50"], ["Ann", "12,5", "0"], ["Ann", "12,50", " "],
        ["Ann", "", "12,50"], ["ann", "12,50", ""], ["Ann", "12,50", "", ""],
    ])
    func anyOtherCellsAnotherFingerprint(cells: [String]) {
        #expect(Self.fingerprint(cells) != Self.fingerprint(["Ann", "12,50", ""]))
    }

    /// A cell of 128 bytes or more has a length of two bytes or more in the encoding: its bytes still
    /// cannot be read as another cut into cells.
    @Test(arguments: [127, 128, 200, 16_384])
    func longCellsKeepTheirBoundaries(length: Int) {
        let long = String(repeating: "a", count: length)
        let row = Self.fingerprint([long, "b", ""])
        #expect(row != Self.fingerprint([long + "b", "", ""]))
        #expect(row != Self.fingerprint([String(long.dropLast()), "ab", ""]))
        #expect(row != Self.fingerprint([long, "", "b"]))
        #expect(row != Self.fingerprint([long, "b"]))
        #expect(row == Self.fingerprint([long, "b", ""]))
    }

    /// One fingerprint a data row, in sheet order; malformed rows keep no cells and have none.
    @Test func oneARowInOrder() {
        let table = SourceTable(
            name: "orders", headers: ["a", "b"],
            rows: [.init(number: 2, cells: ["1", "2"]), .init(number: 4, cells: ["3"]), .init(number: 5, cells: ["1", "2"])],
            malformed: [.init(number: 3, fieldCount: 5)])
        let fingerprints = RowFingerprints(table)
        #expect(fingerprints.count == 3)
        #expect(fingerprints[0] == fingerprints[2])
        #expect(fingerprints[1] == Self.fingerprint(["3", ""]))
        #expect(fingerprints[1] != fingerprints[0])
    }
}
