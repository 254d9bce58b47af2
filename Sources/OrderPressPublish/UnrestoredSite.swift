import OrderPressSupport

/// A publish that failed, and whose files could not all be put back as they were, even tried again: the
/// site and the Markdown may mix old and new files until the next run, which repairs them as after a
/// kill (the marker of an unfinished run stays). Exits 74 whatever the first failure was.
public struct UnrestoredSite: OrderPressFailure {
    public var cause: any OrderPressFailure

    public var exitStatus: ExitStatus { .ioError }
    public var description: String {
        "\(cause.description); and the files already put in place could not all be put back, so the site may mix old and new pages "
            + "until the next run repairs it: fix the disk, then run again"
    }

    /// The one line `status.json` says: no path (the cause names the file by its absolute path), only why.
    public var statusReason: String {
        let why = (cause as? OutputError)?.reason
        return "the last run failed while publishing" + (why.map { " (\($0))" } ?? "")
            + " and could not put every file back: the site may mix old and new pages until the next run repairs it"
    }
    package init(cause: any OrderPressFailure) {
        self.cause = cause
    }
}
