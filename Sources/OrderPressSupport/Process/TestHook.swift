import Foundation

/// Points in publishing and saving the state where a crash test stops a build, so that it can kill it at that exact moment.
///
/// Nothing in OrderPress or in the `orderpress` executable installs a hook, and nothing here reads the
/// environment: a release binary cannot be made to pause or to create files by a variable. Only the
/// test-only executable `orderpress-crashtest` (Tests/CrashTest, built for the tests and never part of
/// a product) installs one, reading `ORDERPRESS_TEST_PAUSE`.
public enum TestHook {
    public enum Point: String, Sendable {
        /// A temporary file is complete but not yet renamed over the old one.
        case beforeRename = "before-rename"
        /// A file has just been written whole: under a temporary name, waiting to be put in place, or in a hidden
        /// folder (see `OpenFolders.Hiding`).
        case afterWrite = "after-write"
        /// A hidden folder is complete but not yet renamed to where it goes.
        case beforeFolderRename = "before-folder-rename"
        /// Every file is in place (and every stale one set aside), but not yet the new list of published files.
        case beforeManifest = "before-manifest"
        /// The state database's save transaction is written but not yet committed.
        case beforeCommit = "before-commit"
        /// The new snapshot's records are staged (see `StagedSnapshot`), on their own thread.
        case staged = "staged"
    }

    /// The hook installed, if any; only the crash test's executable sets it (`TestHook.install`, Tests/CrashTest).
    package final class Slot: @unchecked Sendable {
        private var hook: (@Sendable (Point) -> Void)?
        private let lock = NSLock()
        package var current: (@Sendable (Point) -> Void)? {
            get { lock.withLock { hook } }
            set { lock.withLock { hook = newValue } }
        }
    }

    package static let slot = Slot()

    package static func reached(_ point: Point) {
        slot.current?(point)
    }
}
