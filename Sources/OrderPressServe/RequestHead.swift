import Foundation

/// The head of one HTTP/1.1 request (request line and header fields) as `orderpress serve` reads it
/// before any HTTP library sees it: complete within a fixed number of bytes, or refused.
///
/// Fed the bytes as they arrive; each byte is looked at once, so a head costs time in proportion to
/// its length, however it is cut into packets.
public struct RequestHead: Sendable {
    /// The request line (method, target, version): longer is answered 414. The site's longest
    /// address, a page named by 60 characters of CJK percent-encoded, is under 600 bytes.
    public static let maxRequestLineBytes = 4 * 1024
    /// The whole head, request line included, up to the empty line that ends it: more is answered 431.
    /// Browsers send 1–2 KB; cookies that other programs on 127.0.0.1 set can add a few more.
    public static let maxHeadBytes = 16 * 1024

    /// What the bytes so far amount to.
    public enum Outcome: Equatable, Sendable {
        case needMore
        /// The head is complete. `forwarded` is what the server behind is sent: the request line, then
        /// `Connection: close`. The site answers from the method and the target alone, and a header
        /// field the server never sees costs it nothing (see `BoundedFrontDoor`); it answers this one
        /// request and closes, so nothing the client sends after the head reaches it.
        case complete(forwarded: [UInt8])
        case requestLineTooLong
        case headTooLarge
    }

    private var bytes: [UInt8] = []
    /// Where the line being read starts, and how far the bytes have been looked at.
    private var lineStart = 0
    private var scanned = 0
    /// The request line (without its CR LF) once read; empty lines before it are skipped.
    private var requestLine: Range<Int>?

    public init() {}

    /// Adds `chunk` and says whether the head is complete, refused, or needs more bytes. Bytes after
    /// the head (a body, a pipelined request) are not kept.
    public mutating func append(_ chunk: some Collection<UInt8>) -> Outcome {
        let room = Self.maxHeadBytes + 1 - bytes.count
        bytes.append(contentsOf: chunk.prefix(max(room, 0)))
        while scanned < bytes.count {
            defer { scanned += 1 }
            guard bytes[scanned] == UInt8(ascii: "\n") else { continue }
            var end = scanned
            if end > lineStart, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = lineStart..<end
            lineStart = scanned + 1
            if line.isEmpty {
                // RFC 9112 §2.2: empty lines before the request line are ignored; after it, one ends the head.
                guard let requestLine else { continue }
                if scanned >= Self.maxHeadBytes { return .headTooLarge }
                return .complete(forwarded: Array(bytes[requestLine]) + Array("\r\nConnection: close\r\n\r\n".utf8))
            }
            if requestLine == nil {
                guard line.count <= Self.maxRequestLineBytes else { return .requestLineTooLong }
                requestLine = line
            }
        }
        if requestLine == nil, bytes.count - lineStart > Self.maxRequestLineBytes { return .requestLineTooLong }
        return bytes.count > Self.maxHeadBytes ? .headTooLarge : .needMore
    }
}
