import Foundation

/// The one place the version lives: `orderpress --version`, the man page and `summary.json` readers
/// all see this string.
public enum Version {
    public static let current = "0.9.0"

    /// The running binary's size and modification time: a rebuilt OrderPress renders afresh even
    /// when its version string did not change (the build fingerprint and the page keys hold it).
    package static let executableStamp: String = {
        var status = stat()
        guard stat("/proc/self/exe", &status) == 0 else { return "" }
        return "\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }()
}
