import Foundation
import GRDB
import OrderPressFetch
import OrderPressSupport

/// What is checked of the state folder's own files before SQLite or a reader opens them: the same
/// for a build, which holds the lock and writes them, and for `orderpress diff` and a dry run, which
/// only read. SQLite opens a file by its name: it would follow a link (to `/dev/zero`, read as an
/// empty database: a "first run"), and wait forever on a named pipe.
package enum StateFileCheck {
    /// The publish step's list of published files in the state folder (`Manifest.fileName` is this name):
    /// its presence says a build was published.
    package static let manifestFileName = "published.json"

    /// An entry where the build keeps a state file that is not a regular file or a folder.
    package struct OddEntry: Equatable {
        package var path: String
        package var isLink: Bool
    }

    /// The first entry among the state's own files (the database and its companions, the files from
    /// before it, the list of published files, the source caches) that is a link, a pipe, a device or
    /// a socket; nil when there is none. Looked at without following links; other entries of the
    /// folder are the organiser's and are not looked at.
    package static func oddEntry(in state: URL) -> OddEntry? {
        let store = StateStore(folder: state)
        let cache = SourceCache(state: state).folder
        var owned = (store.ownedFiles + [state.appendingPathComponent(manifestFileName), cache]).map(\.path)
        AtomicFile.walk(below: cache) { _, _, _, path in owned.append(path) }
        for path in owned {
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFREG, S_IFDIR: continue
            case S_IFLNK: return OddEntry(path: path, isLink: true)
            default: return OddEntry(path: path, isLink: false)
            }
        }
        return nil
    }

    /// `oddEntry` as the error a reader of the state gives (exit 73, as the build's refusal).
    static func refuseOddEntries(in state: URL) throws(DataError) {
        guard let odd = oddEntry(in: state) else { return }
        let message = odd.isLink
            ? "\(odd.path) is a symbolic link; OrderPress never reads or writes its state through a link: replace it with a real file"
            : "\(odd.path) is not a regular file; move it away"
        throw DataError(message: message, status: .cannotCreate)
    }

    /// SQLite reads a file of 0 or 1 byte as an empty database, which would make the next build a first
    /// run: every order an addition, the mass-deletion guard blind, the history replaced. OrderPress
    /// leaves such a file only while the first build creates the database, before anything is published
    /// (or when SQLite rolls that creation back from its journal). So a file shorter than a database's
    /// 100-byte header, with no journal to roll back and no state files from before the database, next
    /// to a list of published files, was damaged: it is refused like any other unreadable database.
    static func refuseEmptiedDatabase(_ store: StateStore) throws(DataError) {
        var status = stat()
        let path = store.databaseURL.path
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size < 100 else { return }
        var journal = stat()
        if lstat(path + "-journal", &journal) == 0, journal.st_size > 0 { return }
        if store.legacy.exists { return }
        let manifest = store.folder.appendingPathComponent(manifestFileName).path
        guard FileManager.default.fileExists(atPath: manifest) else { return }
        throw StateStore.unreadable(
            path, reason: "it is \(status.st_size) bytes long, too short to be a database, yet \(manifestFileName) lists a published build")
    }

    /// Whether `error` says that another connection holds the database (SQLite's BUSY or LOCKED).
    static func isBusy(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }

    /// The error for a database another program holds: worth trying again, not moving away (exit 75).
    static func busy(_ path: String) -> DataError {
        DataError(
            message: "\(path) is locked by another program (an `orderpress diff`, or sqlite3 with a transaction open); try again when it has finished",
            status: .tempFail)
    }
}
