import Foundation
import OrderPressSupport

/// How a file written under a temporary name was put in place by `PublishSession.place`, so that it can be
/// undone until the state is committed (a failed commit leaves the site as it was), and completed after.
/// Each way keeps a reader's view atomic: the name holds the old file or the new one, never nothing.
enum FilePlacement: UInt8, Sendable {
    case notPlaced
    /// Swapped with the file that was there (`RENAME_EXCHANGE`): that file now has the temporary name.
    case exchanged
    /// Where the file system cannot exchange: the file that was there kept as a hard link under the backup
    /// name, then the temporary file renamed over it.
    case linkedAside
    /// Nothing was there.
    case created

    /// Puts the file `temporary` in the open folder `folder` in place as `name`, never through a link at the
    /// name (a rename replaces the directory entry). `present` says whether something is likely there: it
    /// decides which way is tried first. Returns how, or the `errno` it failed with.
    static func put(_ temporary: String, as name: String, backup: String, in folder: Int32, present: Bool) -> Result<FilePlacement, PlacementFailure> {
        var present = present
        // At most one change of mind: the name appeared or vanished meanwhile.
        for _ in 0..<2 {
            if present {
                // Only a file is replaced: a link, a folder or anything else where a file goes is refused.
                var status = stat()
                if fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & mode_t(S_IFMT) != mode_t(S_IFREG) {
                    return .failure(PlacementFailure(code: EEXIST, kind: status.st_mode & mode_t(S_IFMT)))
                }
                switch AtomicFile.exchange(temporary, with: name, in: folder) {
                case 0: return .success(.exchanged)
                case ENOENT:
                    present = false
                    continue
                case EINVAL, ENOSYS:
                    guard linkat(folder, name, folder, backup, 0) == 0 else {
                        if errno == ENOENT {
                            present = false
                            continue
                        }
                        return .failure(PlacementFailure(code: errno))
                    }
                    guard renameat(folder, temporary, folder, name) == 0 else {
                        let code = errno
                        unlinkat(folder, backup, 0)
                        return .failure(PlacementFailure(code: code))
                    }
                    return .success(.linkedAside)
                case let code: return .failure(PlacementFailure(code: code))
                }
            } else {
                switch AtomicFile.renameWithoutReplacing(temporary, in: folder, to: name, in: folder) {
                case 0: return .success(.created)
                case EEXIST:
                    present = true
                    continue
                case EINVAL, ENOSYS:
                    // A hard link never replaces what is at the name either.
                    guard linkat(folder, temporary, folder, name, 0) == 0 else {
                        if errno == EEXIST {
                            present = true
                            continue
                        }
                        return .failure(PlacementFailure(code: errno))
                    }
                    unlinkat(folder, temporary, 0)
                    return .success(.created)
                case let code: return .failure(PlacementFailure(code: code))
                }
            }
        }
        return .failure(PlacementFailure(code: EAGAIN))
    }

    /// Puts back what was at `name` before `put`; the new file is dropped. False when it could not be.
    func undo(_ temporary: String, as name: String, backup: String, in folder: Int32) -> Bool {
        switch self {
        case .notPlaced: true
        case .exchanged: renameat(folder, temporary, folder, name) == 0
        case .linkedAside: renameat(folder, backup, folder, name) == 0
        case .created: unlinkat(folder, name, 0) == 0 || errno == ENOENT
        }
    }

    /// Removes what was at `name` before `put`, once the state is committed. A file left is swept later: its
    /// name carries `AtomicFile.temporaryMarker`.
    func complete(_ temporary: String, backup: String, in folder: Int32) {
        switch self {
        case .exchanged: unlinkat(folder, temporary, 0)
        case .linkedAside: unlinkat(folder, backup, 0)
        case .notPlaced, .created: break
        }
    }
}

/// Why a file could not be put in place: the `errno` of the rename, or what is in the way (a link, a folder).
struct PlacementFailure: Error {
    var code: Int32
    var kind: mode_t? = nil
}
