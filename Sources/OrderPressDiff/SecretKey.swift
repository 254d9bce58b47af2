import Foundation
import OrderPressSupport

/// The state folder's random key for secret hashes (`SecretHasher`): 32 bytes in `secret.key`, mode
/// 0600, made by the first build that needs it and never written into the database, so that a copy of
/// `state.sqlite` alone gives no edit code back. Losing the file makes every secret look changed once.
package enum SecretKey {
    static let fileName = "secret.key"
    static let length = 32

    /// The key in `state`: read, or made and kept when `create` (a build); nil when there is none and
    /// none may be made (a dry run, `orderpress diff`, `restore`), or when the file is not a key.
    package static func load(state: URL, create: Bool) throws(OutputError) -> [UInt8]? {
        let url = state.appendingPathComponent(fileName)
        if let data = try? BoundedFile.read(url.path, limit: 4096, followLinks: false), data.count == length {
            return Array(data)
        }
        guard create else { return nil }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try AtomicFile.createFolder(state)
        try AtomicFile.writePrivate(Data(key), to: url, below: state)
        return key
    }
}
