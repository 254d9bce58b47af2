import Foundation

/// A C library function that Swift's Glibc module does not declare (behind a header it leaves out, or
/// `_GNU_SOURCE`), looked up by name in the running process. Nil where it is missing, and on other
/// C libraries.
enum GlibcFunction {
    /// `name` as a function of type `T`, which must be the `@convention(c)` type of its C declaration.
    static func named<T>(_ name: String, as type: T.Type) -> T? {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
        #else
        return nil
        #endif
    }
}
