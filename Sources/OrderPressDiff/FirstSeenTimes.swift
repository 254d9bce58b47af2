import Foundation

/// The first-seen times of a snapshot's records as the index reads them: one string for each distinct
/// time, not one per record. Records in sheet order mostly share the time of the one before (a sheet's
/// rows are first seen by a few runs), so the bytes are compared with the last time's first; only a
/// different time is made a string and looked up among the others (a set insert for every record was a
/// fifth of reading the index).
struct FirstSeenTimes {
    private var last = ""
    private var all: Set<String> = []

    /// The time written in `bytes` (UTF-8), as the one string kept for it.
    package mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let same = last.utf8.count == bytes.count && last.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(bytes) } == true
        if same { return last }
        last = all.insert(String(decoding: bytes, as: UTF8.self)).memberAfterInsert
        return last
    }
}
