import Foundation
import GRDB
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressDiff
import OrderPressTestSupport

/// The state keeps edit codes keyed (`KeyedSecretTests`), as the built binary writes it.
@Suite struct KeyedSecretBinaryTests {
    /// Through the built binary: a four-digit edit code cannot be found from a copy of the database, by
    /// trying all 10,000 with the salt it holds, and the state folder is its owner's alone.
    @Test func theDatabaseAloneConfirmsNoCodeAndTheStateIsPrivate() throws {
        let site = try TestSupport.sampleSite()
        try DataTrustTests.editJSON(site) { row, number in row["editCode"] = String(format: "%04d", (number * 1_237) % 10_000) }
        let codes = Set(try DataTrustTests.sampleRows(site).compactMap { $0["editCode"] })
        #expect(try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock).status == 0)
        let state = site.appendingPathComponent("output/state")
        let database = state.appendingPathComponent("state.sqlite")

        let (salt, stored) = try Self.saltAndHashes(database)
        #expect(salt == SecretHasher.keyedMarker)
        #expect(stored.count >= codes.count)
        let asSalt = SecretHasher(salt: salt)
        let asKey = SecretHasher(key: Array(salt.utf8))
        for guess in (0..<10_000).map({ String(format: "%04d", $0) }) {
            for hasher in [asSalt, asKey] {
                guard case .sha256(let digest) = hasher.hash(SecretValue(guess)) else { continue }
                #expect(!stored.contains(digest.description), "\(guess) found")
            }
        }
        // With the key file, each code is found: the hashes are of these codes, under that key.
        let key = try Array(Data(contentsOf: state.appendingPathComponent(SecretKey.fileName)))
        #expect(key.count == 32)
        let keyed = SecretHasher(key: key)
        #expect(codes.allSatisfy { code in if case .sha256(let digest) = keyed.hash(SecretValue(code)) { stored.contains(digest.description) } else { false } })
        #expect(try Data(contentsOf: database).range(of: Data(key)) == nil)

        // A second run (nothing changed) and a failing one leave the modes as they are.
        #expect(try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock).status == 0)
        try FileManager.default.removeItem(at: site.appendingPathComponent("data/rates.json"))
        #expect(try TestSupport.run(["build"], in: site, environment: DataTrustTests.secondRun).status == 69)
        try Self.expectPrivate(state)
    }

    /// The folder 0700, every folder below it 0700 and every file 0600.
    static func expectPrivate(_ state: URL) throws {
        let mode = { (url: URL) throws -> Int in try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int ?? -1 }
        #expect(try mode(state) == 0o700)
        let files = TestSupport.files(in: state)
        #expect(files.contains(SecretKey.fileName) && files.contains("state.sqlite") && files.contains("lock"), "\(files)")
        for path in files {
            let url = state.appendingPathComponent(path)
            #expect(try mode(url) == 0o600, "\(path)")
            var folder = url.deletingLastPathComponent()
            while folder.path.count > state.path.count {
                #expect(try mode(folder) == 0o700, "\(folder.path)")
                folder = folder.deletingLastPathComponent()
            }
        }
    }

    /// The snapshot's salt field and every secret hash the database holds, records and history alike.
    static func saltAndHashes(_ url: URL) throws -> (String, Set<String>) {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            let salt = try String.fetchOne(db, sql: "SELECT salt FROM snapshot WHERE id = 1") ?? ""
            let text = try DataTrustTests.text(ofDatabase: url)
            let hex = try NSRegularExpression(pattern: "[0-9a-f]{64}")
            let found = hex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
            return (salt, Set(found))
        }
    }
}
