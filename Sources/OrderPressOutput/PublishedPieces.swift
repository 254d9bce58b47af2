import Foundation

/// What the last build published of a file made of pieces, as the sink offers it: the pieces and a
/// way to read the file's bytes.
package struct PublishedPieces: Sendable {
    package var pieces: FilePieces
    /// Fills `buffer` with the published file's bytes from `offset`; false when it cannot (the file
    /// went, shrank or cannot be read), and the file is then made whole again.
    package var read: @Sendable (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Bool
    /// Sends `length` of the published file's bytes from `offset` into the file open at `descriptor`, at its
    /// offset, within the kernel (no copy through this process); returns how many it sent, fewer when it
    /// could not send them all. Nil when the file can only be read.
    package var send: (@Sendable (_ offset: Int, _ length: Int, _ descriptor: Int32) -> Int)?

    package init(
        pieces: FilePieces, read: @escaping @Sendable (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Bool,
        send: (@Sendable (_ offset: Int, _ length: Int, _ descriptor: Int32) -> Int)? = nil
    ) {
        self.pieces = pieces
        self.read = read
        self.send = send
    }
}
