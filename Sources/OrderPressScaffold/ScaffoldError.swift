import OrderPressSupport

/// Why `orderpress init` made nothing; every case but `noFolder` (64) exits 73 (cannot create) and
/// leaves the folder as it was.
public enum ScaffoldError: OrderPressFailure, Equatable {
    /// DIR was empty or only blanks (an unset shell variable, a stray pair of quotes): it would name
    /// the current folder, or a folder whose name nobody can see.
    case noFolder(String)
    /// The folder already holds a site, or a file of the same name as one `init` would write.
    case occupied(folder: String, file: String)
    case notAFolder(String)
    case cannotWrite(path: String, reason: String)

    public var exitStatus: ExitStatus {
        if case .noFolder = self { return .usage }
        return .cannotCreate
    }

    public var description: String {
        switch self {
        case .noFolder(let given):
            given.isEmpty
                ? "init: no folder given (an empty argument); name the new site's folder, e.g. orderpress init tea-run"
                : "init: '\(given)' is only blank space; name the new site's folder, e.g. orderpress init tea-run"
        case .occupied(let folder, let file):
            "init: \(folder) already holds \(file); nothing was changed; choose a new or empty folder"
        case .notAFolder(let path):
            "init: \(path) is not a folder; choose a new or empty folder"
        case .cannotWrite(let path, let reason):
            "init: cannot create \(path) (\(reason)); check that the folder is writable"
        }
    }
}
