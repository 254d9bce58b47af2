import Crypto
import OrderPressConfig
import OrderPressFetch
import OrderPressSupport

/// What a row's validated form depends on beyond its own cells, as one digest: the program, the
/// configuration, the sheet's name and header, and what validation decided over the whole sheet (the
/// groups and their currencies, the date order, the rows whose cells sit a column off). Under the same
/// context, a row with the same fingerprint (`RowFingerprints`) validates to the same `ValidatedRow` but
/// for its sheet row, its identity and whether it is rejected, which depend on other rows and which the
/// diff compares apart: that is what lets a rerun keep an unchanged row's record instead of making it again.
package struct RowContext: Sendable, Equatable {
    package var digest: Digest128

    init(
        configuration: Configuration, table: SourceTable, groups: [Group], dateOrder: DateOrder?, shiftedRows: [Int]
    ) {
        var hash = SHA256()
        hash.addProgram()
        // Fingerprints made another way tell no row's record, whatever the program's stamp.
        hash.add(SourceTable.fingerprintScheme)
        configuration.fingerprint.withBytes { hash.update(bufferPointer: $0) }
        hash.add(table.name)
        hash.add(table.fromCSV ? "csv" : "table")
        hash.add(String(table.headers.count))
        for header in table.headers { hash.add(header) }
        // Of a group, a row's validation reads only its name (which group the row names) and its currency:
        // each written out, not described (`String(reflecting:)` of a thousand groups was a cost of every run).
        hash.add(String(groups.count))
        for group in groups {
            hash.add(group.name)
            hash.add(group.currency)
        }
        hash.add(dateOrder?.rawValue ?? "-")
        hash.add(shiftedRows.map(String.init).joined(separator: ","))
        digest = Digest128(hash.finalize())
    }

    /// What records made from rows validated under this context, with secrets hashed with `key`, depend on
    /// (`Snapshot.context`). The key enters only through SHA-256.
    package func keyed(by key: [UInt8]) -> Digest128 {
        var hash = SHA256()
        digest.withBytes { hash.update(bufferPointer: $0) }
        hash.update(data: key)
        return Digest128(hash.finalize())
    }
}
