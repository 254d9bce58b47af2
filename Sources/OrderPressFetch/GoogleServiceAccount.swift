import Crypto
import Foundation
import _CryptoExtras
import OrderPressConfig
import OrderPressSupport

/// A Google service account's JSON key file, and the access token it buys: a JWT signed RS256 with the
/// key, exchanged at the key's `token_uri` (OAuth 2.0 JWT bearer grant). The private key, the signed
/// assertion and the token stay in memory: no message, log, cache or state file holds them.
struct GoogleServiceAccount: Sendable {
    package var clientEmail: String
    var privateKeyID: String?
    var tokenURI: URL
    private var key: _RSA.Signing.PrivateKey

    static let scope = "https://www.googleapis.com/auth/spreadsheets.readonly"
    /// A key file is a few KB; anything much larger is not one.
    static let maxFileBytes = 1 << 20

    /// Reads the key file whose path `variable` holds. `key` names the configuration key in messages
    /// (`orders.credentials_env`); every failure says how to fix it and quotes nothing from the file.
    static func load(variable: String, environment: [String: String], key: String, file: String) throws(ConfigurationError) -> Self {
        let path = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !path.isEmpty else {
            throw ConfigurationError.invalid(
                key, "names \(variable), which is unset or empty; export the path of the service account's JSON key file in \(variable)", in: file)
        }
        let fix = "download a JSON key for the service account (Google Cloud console › IAM › Service accounts › Keys › Add key) and point \(variable) at it"
        let data: Data
        do throws(BoundedFile.Failure) {
            data = try BoundedFile.read(path, limit: maxFileBytes)
        } catch {
            throw ConfigurationError.invalid(key, "names \(variable), whose file \(path) cannot be read (\(error.reason)); \(fix)", in: file)
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let email = object["client_email"] as? String, !email.isEmpty,
            let pem = object["private_key"] as? String
        else {
            throw ConfigurationError.invalid(
                key, "names \(variable), whose file \(path) is not a service account's key file (no client_email or private_key); \(fix)", in: file)
        }
        let uri = (object["token_uri"] as? String) ?? "https://oauth2.googleapis.com/token"
        guard let tokenURI = URL(string: uri), ["http", "https"].contains(tokenURI.scheme?.lowercased() ?? ""), tokenURI.host != nil else {
            throw ConfigurationError.invalid(key, "names \(variable), whose file \(path) has a token_uri that is not an http or https address; \(fix)", in: file)
        }
        let privateKey: _RSA.Signing.PrivateKey
        do {
            privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw ConfigurationError.invalid(
                key, "names \(variable), whose file \(path) holds a private_key that is not an RSA key of 2048 bits or more in PEM; \(fix)", in: file)
        }
        return GoogleServiceAccount(
            clientEmail: email, privateKeyID: object["private_key_id"] as? String, tokenURI: tokenURI, key: privateKey)
    }

    /// The signed JWT asking for read-only access to sheets, valid for an hour from `now`.
    func assertion(now: Date) throws -> String {
        let issued = Int(now.timeIntervalSince1970)
        var header = "{\"alg\":\"RS256\",\"typ\":\"JWT\""
        if let privateKeyID { header += ",\"kid\":\(JSONEscaper.quoted(privateKeyID))" }
        header += "}"
        let claims = "{\"iss\":\(JSONEscaper.quoted(clientEmail)),\"scope\":\(JSONEscaper.quoted(Self.scope)),"
            + "\"aud\":\(JSONEscaper.quoted(tokenURI.absoluteString)),\"iat\":\(issued),\"exp\":\(issued + 3600)}"
        let input = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(claims.utf8))
        let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Self.base64URL(signature.rawRepresentation)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// An access token from `token_uri`, for the run's requests to the Sheets API. `source` and `variable`
    /// name the configuration in messages; a failure is a `SourceError` (exit 69) saying what to do.
    package func accessToken(
        _ downloader: Downloader, now: Date, for source: Configuration.SourceSettings, variable: String, requests: inout Int
    ) async throws(SourceError) -> String {
        let host = tokenURI.host ?? "the token endpoint"
        let assertion: String
        do {
            assertion = try self.assertion(now: now)
        } catch {
            throw SourceError(source: source.name, message: "cannot sign the service account's token request with the key in \(variable); download a new JSON key")
        }
        let body = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        let deadline = downloader.deadline(for: source, url: tokenURI)
        let outcome: Result<HTTPReply, HTTPFailure>
        switch await downloader.post(tokenURI, form: Data(body.utf8), timeout: .seconds(source.timeoutSeconds), deadline: deadline, requests: &requests) {
        case .outOfTime: throw deadline.error
        case .done(let done): outcome = done
        }
        let reply: HTTPReply
        switch outcome {
        case .failure(.timedOut):
            throw SourceError(
                source: source.name, message: "the service account's token endpoint \(host) did not answer within \(source.timeoutSeconds) s; try again later")
        case .failure(.unreachable(let reason)):
            throw SourceError(source: source.name, message: "cannot reach the service account's token endpoint \(host) (\(reason)); check the network")
        case .failure:
            throw SourceError(source: source.name, message: "the service account's token endpoint \(host) sent no usable answer; check token_uri in the key file in \(variable)")
        case .success(let answer):
            reply = answer
        }
        let object = (try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any]
        guard reply.succeeded else {
            // OAuth's error codes are short words (`invalid_grant`); anything else from the server is not repeated.
            let code = (object?["error"] as? String).flatMap { $0.count <= 40 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "_") } ? $0 : nil }
            let detail = code.map { "HTTP \(reply.status), \($0)" } ?? "HTTP \(reply.status)"
            let hint: String
            switch (reply.status, code) {
            case (_, "invalid_grant"):
                hint = "the key was refused: check this machine's clock, and that the key of \(clientEmail) in \(variable) was not deleted (else create a new one)"
            case (401, _), (403, _), (_, "invalid_client"), (_, "unauthorized_client"):
                hint = "the service account \(clientEmail) or its key is disabled or deleted; create a new key and point \(variable) at it"
            case (429, _), (500..<600, _):
                hint = "Google's token service is busy or failing; try again later"
            default:
                hint = "check the key file in \(variable)"
            }
            throw SourceError(source: source.name, message: "the service account's token request to \(host) failed (\(detail)); \(hint)")
        }
        guard let token = object?["access_token"] as? String, !token.isEmpty else {
            throw SourceError(
                source: source.name, message: "the service account's token endpoint \(host) answered without an access token; check token_uri in the key file in \(variable)")
        }
        return token
    }
}
