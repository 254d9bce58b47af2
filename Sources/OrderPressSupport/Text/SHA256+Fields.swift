import Crypto

extension SHA256 {
    /// `text`'s UTF-8 and a NUL after it, so that fields hashed one after another do not run into each other.
    package mutating func add(_ text: String) {
        update(data: Array(text.utf8))
        update(data: [0])
    }

    /// The program itself: its version and the running binary's stamp (`Version`), for a digest of what a
    /// build's output depends on.
    package mutating func addProgram() {
        add(Version.current)
        add(Version.executableStamp)
    }
}
