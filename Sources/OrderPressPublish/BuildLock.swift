import Foundation
import OrderPressDiff
import OrderPressSupport

/// One build at a time per state folder: a POSIX record lock on `<state>/lock`, which the kernel
/// releases when the process ends however it ends, so a killed build never blocks the next one.
/// The lock file itself is never rewritten; the holder's process id comes from the kernel.
public final class BuildLock: @unchecked Sendable {
    private let descriptor: Int32

    /// Another build holds the lock; exits 75.
    public struct Busy: OrderPressFailure, Equatable {
        public var path: String
        public var holder: Int32?
        public var started: String?

        public var exitStatus: ExitStatus { .tempFail }
        public var description: String {
            let who = holder.map { pid in " (process \(pid)" + (started.map { ", started \($0)" } ?? "") + ")" } ?? ""
            return "another build\(who) holds \(path); try again when it has finished"
        }
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Takes the lock at once or fails; never waits. Then checks the state files: the snapshot, history,
    /// caches and list of published files are all rewritten by the build, so a link (or a pipe) in their
    /// place is refused (73) before anything is read or written.
    public static func acquire(in state: URL) throws(BuildLockError) -> BuildLock {
        do {
            try AtomicFile.createFolder(state)
        } catch {
            throw .output(error)
        }
        let path = state.appendingPathComponent("lock").standardizedFileURL.path
        // O_NOFOLLOW: a link named `lock` must not make the build create or open a file elsewhere.
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFLNK) {
                throw .output(
                    OutputError(
                        path: path, reason: "a symbolic link", cannotCreate: true,
                        advice: "OrderPress never writes through a link inside its folders; remove the link (a build creates the lock itself)"))
            }
            throw .output(OutputError(path: path, reason: String(cString: strerror(errno)), cannotCreate: true))
        }
        // The state's files are their owner's alone (0600), the lock too; set here, on this descriptor, since
        // closing any other descriptor of the file would drop this process's record lock.
        _ = fchmod(descriptor, 0o600)
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        if fcntl(descriptor, F_SETLK, &request) == 0 {
            let lock = BuildLock(descriptor: descriptor)
            do {
                try checkStateFiles(in: state)
            } catch {
                throw .output(error)
            }
            return lock
        }
        var probe = flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        let holder: Int32? = fcntl(descriptor, F_GETLK, &probe) == 0 && probe.l_type != Int16(F_UNLCK) ? probe.l_pid : nil
        close(descriptor)
        throw .busy(Busy(path: path, holder: holder, started: holder.flatMap(startTime)))
    }

    /// Refuses a link, or anything but a file or folder, in place of a file the build rewrites in the
    /// state folder (see `StateFileCheck`).
    private static func checkStateFiles(in state: URL) throws(OutputError) {
        guard let odd = StateFileCheck.oddEntry(in: state) else { return }
        if odd.isLink { throw ContainedPath.link(odd.path, replaceWith: "a real file or folder") }
        throw OutputError(path: odd.path, reason: "not a regular file", cannotCreate: true, advice: "move it away")
    }

    /// When process `pid` started, from /proc (Linux): boot time plus the process's start in clock ticks.
    static func startTime(of pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name start at field 3; the start time is field 22.
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]),
            let bootLine = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
            let boot = Double(bootLine.dropFirst(6))
        else { return nil }
        let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return Timestamp.iso8601(Date(timeIntervalSince1970: boot + ticks / perSecond))
    }
}

/// Why the lock could not be taken.
public enum BuildLockError: OrderPressFailure {
    case busy(BuildLock.Busy)
    case output(OutputError)

    public var exitStatus: ExitStatus {
        switch self {
        case .busy(let busy): busy.exitStatus
        case .output(let error): error.exitStatus
        }
    }

    public var description: String {
        switch self {
        case .busy(let busy): busy.description
        case .output(let error): error.description
        }
    }
}
