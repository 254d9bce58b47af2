import FlyingFox
import Foundation
import OrderPress

/// Answers GET and HEAD with files of the built site; the library's `SiteFiles` decides which file,
/// if any, a path may reach. FlyingFox's own `DirectoryHTTPHandler` is not used: it follows links
/// out of the folder and would not keep the state folder out.
struct SiteHandler: HTTPHandler {
    let files: SiteFiles

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            return Self.text("Method not allowed\n", status: .methodNotAllowed, headers: [HTTPHeader("Allow"): "GET, HEAD"])
        }
        switch files.lookup(request.target.path(percentEncoded: true)) {
        case .file(let url, let contentType):
            guard let body = try? Data(contentsOf: url) else { return Self.text("Not found\n", status: .notFound) }
            return HTTPResponse(
                statusCode: .ok,
                headers: HTTPHeaders([.contentType: contentType, .cacheControl: "no-cache", HTTPHeader("X-Content-Type-Options"): "nosniff"]),
                body: request.method == .HEAD ? Data() : body)
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
