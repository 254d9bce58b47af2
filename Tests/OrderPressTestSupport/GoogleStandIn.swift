import Crypto
import FlyingFox
import FlyingSocks
import Foundation
import Testing
import _CryptoExtras

/// A loopback stand-in for Google: the Sheets API v4 (`values.get`, `values:batchGet`) and an OAuth
/// token endpoint that checks a service account's JWT as Google does — its RS256 signature with the
/// account's public key, and its claims — before it hands out an access token.
package final class GoogleStandIn: Sendable {
    package static let spreadsheetID = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-sheetA"
    package static let otherSpreadsheetID = "1ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210_-sheetB"
    package static let apiKey = "AIzaSyTEST-api-key-0f9e8d7c"
    package static let accessToken = "ya29.TEST-access-token-5c4b3a21"
    package static let clientEmail = "orderpress-reader@test-project.iam.gserviceaccount.com"
    package static let privateKeyID = "kid-0123456789abcdef"
    package static let scope = "https://www.googleapis.com/auth/spreadsheets.readonly"

    /// Who may read the sheets.
    package enum Sharing: Sendable {
        /// Shared "anyone with the link": an API key reads it, and so does the service account.
        case anyoneWithTheLink
        /// Shared with the service account's e-mail only.
        case serviceAccountOnly
        /// Shared with nobody the requests come as.
        case nobody
    }

    /// A request as the stand-in saw it.
    package struct Request: Sendable {
        package var method: String
        /// The path as sent, still percent-encoded.
        package var rawPath: String
        /// Every query item in order, repeated ones included.
        package var query: [(name: String, value: String)]
        package var authorization: String?
        package var body: Data

        package func values(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }
        package var isToken: Bool { rawPath == "/token" }
        package var isSheets: Bool { rawPath.hasPrefix("/v4/") }
    }

    package let key: _RSA.Signing.PrivateKey
    /// Each spreadsheet's tabs: the tab's name and its `values` as JSON text.
    package let sheets: [String: [String: String]]
    package let sharing: Sharing
    /// Other documents it serves by path (a rates feed), so that one server stands in for a whole build.
    package let documents: [String: String]
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    private let log: Log
    package let port: UInt16

    package static func with<T>(
        sheets: [String: [String: String]], sharing: Sharing = .serviceAccountOnly, documents: [String: String] = [:],
        _ body: (GoogleStandIn) async throws -> T
    ) async throws -> T {
        let standIn = try await GoogleStandIn(sheets: sheets, sharing: sharing, documents: documents)
        do {
            let result = try await body(standIn)
            await standIn.stop()
            return result
        } catch {
            await standIn.stop()
            throw error
        }
    }

    private init(sheets: [String: [String: String]], sharing: Sharing, documents: [String: String]) async throws {
        // A key made for this run only, as a real service account's is: 2048 bits, PKCS#8 in the key file.
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let log = Log()
        self.key = key
        self.sheets = sheets
        self.sharing = sharing
        self.documents = documents
        self.log = log
        let handler = Handler(log: log, publicKey: key.publicKey, sheets: sheets, sharing: sharing, documents: documents)
        server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 5, logger: .disabled, handler: handler)
        let server = server
        task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: TestSupport.listeningCeiling)
        guard case .ip4(_, let port) = await server.listeningAddress else { throw URLError(.cannotConnectToHost) }
        self.port = port
        await log.setTokenURI(url("/token"))
    }

    package func stop() async {
        await server.stop(timeout: 0)
        task.cancel()
    }

    package func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    package var requests: [Request] { get async { await log.requests } }
    /// What the token endpoint found wrong with an assertion (empty when every one was right).
    package var problems: [String] { get async { await log.problems } }

    /// Writes the service account's JSON key file (as the Google Cloud console downloads it) into `folder`.
    package func keyFile(in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("service-account.json")
        let object: [String: String] = [
            "type": "service_account", "project_id": "test-project", "private_key_id": Self.privateKeyID,
            "private_key": key.pkcs8PEMRepresentation, "client_email": Self.clientEmail, "client_id": "1234567890",
            "token_uri": url("/token"),
        ]
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: file)
        return file
    }

    /// Every secret a run holds, as the bytes that must appear nowhere it writes: the API key, the access
    /// token, the private key's PEM body lines.
    package var secrets: [String] {
        let pem = key.pkcs8PEMRepresentation.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        return [Self.apiKey, Self.accessToken] + pem.prefix(3)
    }

    private actor Log {
        var requests: [Request] = []
        var problems: [String] = []
        var tokenURI = ""
        func append(_ request: Request) { requests.append(request) }
        func problem(_ text: String) { problems.append(text) }
        func setTokenURI(_ uri: String) { tokenURI = uri }
    }

    private struct Handler: HTTPHandler {
        let log: Log
        let publicKey: _RSA.Signing.PublicKey
        let sheets: [String: [String: String]]
        let sharing: Sharing
        let documents: [String: String]

        func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
            let rawQuery = request.target.query()
            let query = rawQuery.split(separator: "&").map { item -> (String, String) in
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
                return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
            }
            let seen = Request(
                method: request.method.rawValue, rawPath: request.target.path(), query: query,
                authorization: request.headers[.authorization], body: try await request.bodyData)
            await log.append(seen)
            if seen.isToken { return await token(seen) }
            if let document = documents[seen.rawPath] { return json(document) }
            return await values(seen)
        }

        private func json(_ text: String, status: Int = 200) -> HTTPResponse {
            var headers = HTTPHeaders()
            headers[.contentType] = "application/json; charset=UTF-8"
            return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Status \(status)"), headers: headers, body: Data(text.utf8))
        }

        private func error(_ status: Int, _ message: String, _ reason: String) -> HTTPResponse {
            json(#"{"error": {"code": \#(status), "message": "\#(message)", "status": "\#(reason)"}}"#, status: status)
        }

        /// The JWT bearer grant: the assertion's signature checked with the public key, then its claims.
        private func token(_ request: Request) async -> HTTPResponse {
            let form = Dictionary(
                String(decoding: request.body, as: UTF8.self).split(separator: "&").map { item -> (String, String) in
                    let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    return (String(parts[0]).removingPercentEncoding ?? "", parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? "") : "")
                }, uniquingKeysWith: { $1 })
            let refuse = { (problem: String) async -> HTTPResponse in
                await log.problem(problem)
                return json(#"{"error": "invalid_grant", "error_description": "\#(problem)"}"#, status: 400)
            }
            guard request.method == "POST", form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
                return await refuse("not a jwt-bearer grant")
            }
            let parts = (form["assertion"] ?? "").split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let signature = Self.base64URL(parts[2]) else { return await refuse("not a JWT") }
            let signed = Data((parts[0] + "." + parts[1]).utf8)
            guard publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: signed, padding: .insecurePKCS1v1_5)
            else { return await refuse("Invalid JWT Signature.") }
            guard let header = Self.base64URL(parts[0]).flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }),
                let claims = Self.base64URL(parts[1]).flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] })
            else { return await refuse("unreadable JWT") }
            let tokenURI = await log.tokenURI
            var wrong: [String] = []
            if header["alg"] as? String != "RS256" { wrong.append("alg") }
            if header["typ"] as? String != "JWT" { wrong.append("typ") }
            if header["kid"] as? String != GoogleStandIn.privateKeyID { wrong.append("kid") }
            if claims["iss"] as? String != GoogleStandIn.clientEmail { wrong.append("iss") }
            if claims["scope"] as? String != GoogleStandIn.scope { wrong.append("scope") }
            if claims["aud"] as? String != tokenURI { wrong.append("aud") }
            if let iat = claims["iat"] as? Int, let exp = claims["exp"] as? Int {
                if !(exp > iat && exp - iat <= 3600) { wrong.append("exp") }
            } else {
                wrong.append("iat/exp")
            }
            guard wrong.isEmpty else { return await refuse("wrong claims: \(wrong.joined(separator: ", "))") }
            return json(#"{"access_token": "\#(GoogleStandIn.accessToken)", "expires_in": 3599, "token_type": "Bearer"}"#)
        }

        private func values(_ request: Request) async -> HTTPResponse {
            let segments = request.rawPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard segments.count >= 5, segments[1] == "v4", segments[2] == "spreadsheets" else { return error(404, "Not Found", "NOT_FOUND") }
            let byKey = request.values("key") == [GoogleStandIn.apiKey]
            let byAccount = request.authorization == "Bearer \(GoogleStandIn.accessToken)"
            let allowed: Bool
            switch sharing {
            case .anyoneWithTheLink: allowed = byKey || byAccount
            case .serviceAccountOnly: allowed = byAccount
            case .nobody: allowed = false
            }
            guard let tabs = sheets[segments[3]] else { return error(404, "Requested entity was not found.", "NOT_FOUND") }
            guard allowed else { return error(403, "The caller does not have permission", "PERMISSION_DENIED") }
            guard request.values("valueRenderOption") == ["UNFORMATTED_VALUE"], request.values("dateTimeRenderOption") == ["SERIAL_NUMBER"] else {
                return error(400, "expected raw values", "INVALID_ARGUMENT")
            }
            let ranges: [String]
            if segments.count == 6, segments[4] == "values" {
                ranges = [segments[5].removingPercentEncoding ?? ""]
            } else if segments.count == 5, segments[4] == "values:batchGet" {
                ranges = request.values("ranges")
            } else {
                return error(404, "Not Found", "NOT_FOUND")
            }
            var answers: [String] = []
            for range in ranges {
                // A whole tab in A1 notation: its name quoted, a quote inside doubled.
                guard range.count >= 2, range.hasPrefix("'"), range.hasSuffix("'") else {
                    return error(400, "Unable to parse range: \(range)", "INVALID_ARGUMENT")
                }
                let name = String(range.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
                guard let values = tabs[name] else { return error(400, "Unable to parse range: \(range)", "INVALID_ARGUMENT") }
                answers.append(#"{"range": \#(JSONString(range + "!A1:Z1000")), "majorDimension": "ROWS", "values": \#(values)}"#)
            }
            if segments[4] == "values" { return json(answers[0]) }
            return json(#"{"spreadsheetId": "\#(segments[3])", "valueRanges": [\#(answers.joined(separator: ", "))]}"#)
        }

        private func JSONString(_ text: String) -> String {
            String(decoding: try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed]), as: UTF8.self)
        }

        static func base64URL(_ text: String) -> Data? {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            return Data(base64Encoded: base64)
        }
    }
}
