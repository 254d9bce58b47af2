import FlyingFox
import Foundation
import OrderPressServe

/// Answers GET and HEAD with files of the built site; the library's `SiteFiles` decides which file,
/// if any, a path may reach. FlyingFox's own `DirectoryHTTPHandler` is not used: it follows links
/// out of the folder and would not keep the state folder out.
struct SiteHandler: HTTPHandler {
    let files: SiteFiles

    /// How much of a file is read at a time.
    static let pieceBytes = 64 << 10

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            return Self.text("Method not allowed\n", status: .methodNotAllowed, headers: [HTTPHeader("Allow"): "GET, HEAD"])
        }
        switch files.lookup(request.target.path(percentEncoded: true)) {
        case .file(let url, let contentType):
            // Streamed from the file in pieces as the client takes them, never held whole: a slow client of
            // a large page costs a buffer, not the page (`BoundedFrontDoor` passes it on piece by piece).
            guard let body = try? HTTPBodySequence(file: url, suggestedBufferSize: Self.pieceBytes), let length = body.count else {
                return Self.text("Not found\n", status: .notFound)
            }
            // HEAD: the length GET would send, and no body (FlyingFox keeps a Content-Length it is given).
            var headers = HTTPHeaders([.contentType: contentType, .cacheControl: "no-cache", HTTPHeader("X-Content-Type-Options"): "nosniff"])
            headers[.contentLength] = String(length)
            return HTTPResponse(statusCode: .ok, headers: headers, body: request.method == .HEAD ? HTTPBodySequence() : body)
        case .redirect(let location):
            return Self.text("Moved\n", status: .movedPermanently, headers: [.location: location])
        case .notFound:
            return Self.text("Not found\n", status: .notFound)
        }
    }

    private static func text(_ text: String, status: HTTPStatusCode, headers: [HTTPHeader: String] = [:]) -> HTTPResponse {
        HTTPResponse(
            statusCode: status,
            headers: HTTPHeaders(headers.merging([.contentType: "text/plain; charset=utf-8"]) { $1 }),
            body: Data(text.utf8))
    }
}
