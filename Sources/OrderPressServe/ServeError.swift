import OrderPressSupport

/// Why `orderpress serve` could not start.
public enum ServeError: OrderPressFailure, Equatable {
    /// The site folder does not exist yet: nothing was built. Exits 64.
    case siteMissing(String)
    /// Another program listens on the port. Exits 75, like a build lock held by another build:
    /// try again later or choose another port.
    case portInUse(Int)
    /// The port could not be opened for another reason (permissions, no loopback). Exits 69.
    case cannotListen(port: Int, reason: String)
    /// The private folder for the server's internal socket could not be made in `folder` (the
    /// temporary folder, `TMPDIR`): no port would help. Exits 73.
    case noSocketFolder(folder: String, reason: String)

    public var exitStatus: ExitStatus {
        switch self {
        case .siteMissing: .usage
        case .portInUse: .tempFail
        case .cannotListen: .unavailable
        case .noSocketFolder: .cannotCreate
        }
    }

    public var description: String {
        switch self {
        case .siteMissing(let path):
            "serve: \(path) does not exist yet; run `orderpress build` first, or `orderpress serve --build`"
        case .portInUse(let port):
            "serve: port \(port) on 127.0.0.1 is already in use; stop the other server or pass --port N"
        case .cannotListen(let port, let reason):
            "serve: cannot listen on 127.0.0.1:\(port) (\(reason)); pass another --port N"
        case .noSocketFolder(let folder, let reason):
            "serve: cannot make a private folder in the temporary folder \(folder) (\(reason)); set TMPDIR to a folder you can write to"
        }
    }
}
