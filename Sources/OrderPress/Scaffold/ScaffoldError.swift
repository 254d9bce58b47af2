/// Why `orderpress init` made nothing; every case exits 73 (cannot create) and leaves the folder as it was.
public enum ScaffoldError: OrderPressFailure, Equatable {
    /// The folder already holds a site, or a file of the same name as one `init` would write.
    case occupied(folder: String, file: String)
    case notAFolder(String)
    case cannotWrite(path: String, reason: String)

    public var exitStatus: ExitStatus { .cannotCreate }

    public var description: String {
        switch self {
        case .occupied(let folder, let file):
            "init: \(folder) already holds \(file); nothing was changed; choose a new or empty folder"
        case .notAFolder(let path):
            "init: \(path) is not a folder; choose a new or empty folder"
        case .cannotWrite(let path, let reason):
            "init: cannot create \(path) (\(reason)); check that the folder is writable"
        }
    }
}
