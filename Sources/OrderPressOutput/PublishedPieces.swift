import Foundation

/// What the last build published of a file made of pieces, as the sink offers it: the pieces and a
/// way to read the file's bytes.
package struct PublishedPieces: Sendable {
    package var pieces: FilePieces
    /// Fills `buffer` with the published file's bytes from `offset`; false when it cannot (the file
    /// went, shrank or cannot be read), and the file is then made whole again.
    package var read: @Sendable (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Bool
    package init(pieces: FilePieces, read: @escaping @Sendable (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Bool) {
        self.pieces = pieces
        self.read = read
    }
}
