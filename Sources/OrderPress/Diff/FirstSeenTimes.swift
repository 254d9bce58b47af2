import Foundation
import GRDBSQLite

/// The first-seen times of a snapshot's records as the index reads them: one string for each distinct
/// time, not one per record. Records in sheet order mostly share the time of the one before (a sheet's
/// rows are first seen by a few runs), so the bytes are compared with the last time's first; only a
/// different time is made a string and looked up among the others (a set insert for every record was a
/// fifth of reading the index).
struct FirstSeenTimes {
    private var last = ""
    private var all: Set<String> = []

    /// The time in `column` of the row `statement` is on, as text; throws `StateDatabase.notASnapshot`
    /// for any other type.
    mutating func text(_ statement: OpaquePointer, column: Int32) throws -> String {
        guard sqlite3_column_type(statement, column) == SQLITE_TEXT, let bytes = sqlite3_column_text(statement, column) else {
            throw StateDatabase.notASnapshot
        }
        let count = Int(sqlite3_column_bytes(statement, column))
        let same = last.utf8.count == count && last.utf8.withContiguousStorageIfAvailable { stored in
            count == 0 || memcmp(stored.baseAddress!, bytes, count) == 0
        } == true
        if same { return last }
        last = all.insert(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)).memberAfterInsert
        return last
    }
}
