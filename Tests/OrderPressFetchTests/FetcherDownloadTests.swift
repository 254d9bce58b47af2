import Foundation
import Testing

@testable import OrderPressFetch
import OrderPressTestSupport

/// The fetch step in two halves: `download` obtains the sources' bytes and their fingerprint,
/// `parse` reads them. An unchanged set of sources must give the same fingerprint, any changed byte
/// of any source another one.
@Suite struct FetcherDownloadTests {
    typealias F = FetchFixture

    static let toml = """
        base_currency = "TWD"
        [orders]
        path = "orders.json"
        [groups]
        path = "groups.csv"
        [rates]
        path = "rates.json"
        format = "json"
        """
    static let files = [
        "orders.json": #"[{"group": "G", "orderer": "Amy", "drink": "紅茶", "price": "35"}]"#,
        "groups.csv": "group,currency\nG,TWD\n",
        "rates.json": #"{"base": "USD", "rates": {"TWD": 32.125}}"#,
    ]

    /// The fingerprint of the sources in a new folder holding `files`, changed by `changes`.
    static func fingerprint(_ changes: [String: String] = [:]) async throws -> String {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(files.merging(changes) { $1 }, in: folder)
        return try await Fetcher(configuration: TestSupport.configuration(toml, in: folder)).download().fingerprint
    }

    @Test func theSameBytesGiveTheSameFingerprintAsHex() async throws {
        let first = try await Self.fingerprint()
        #expect(try await Self.fingerprint() == first)
        #expect(first.count == 64 && first.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test(arguments: [
        ["orders.json": #"[{"group": "G", "orderer": "Amy", "drink": "紅茶", "price": "36"}]"#],
        ["orders.json": #"[{"group": "G", "orderer": "Amy", "drink": "紅茶", "price": "35"}] "#],
        ["groups.csv": "group,currency\nG,JPY\n"],
        ["rates.json": #"{"base": "USD", "rates": {"TWD": 32.126}}"#],
        // Bytes moved from one source to the next: the same bytes in a row, but not the same sources.
        ["orders.json": #"[{"group": "G", "orderer": "Amy", "drink": "紅茶", "price": "35"}]g"#, "groups.csv": "roup,currency\nG,TWD\n"],
    ])
    func anyChangedByteOfAnySourceChangesIt(changes: [String: String]) async throws {
        #expect(try await Self.fingerprint(changes) != Self.fingerprint())
    }

    /// Download only reads: a file that does not parse fails in `parse`, with the error a fetch gives,
    /// and the fetched data carries the download's fingerprint.
    @Test func downloadReadsAndParseReads() async throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(Self.files.merging(["orders.json": "<html>502</html>"]) { $1 }, in: folder)
        let fetcher = try Fetcher(configuration: TestSupport.configuration(Self.toml, in: folder))
        let downloaded = try await fetcher.download()
        let message = "is not valid JSON (it looks like an HTML or XML page); expected an array of row objects"
        #expect(throws: SourceError(source: "orders", message: message)) { try fetcher.parse(downloaded) }
        await #expect(throws: SourceError(source: "orders", message: message)) { try await fetcher.fetch() }

        TestSupport.write(Self.files, in: folder)
        let fetched = try await fetcher.fetch()
        #expect(fetched.fingerprint == (try await fetcher.download().fingerprint))
        #expect(fetched.orders.rows == [.init(number: 2, cells: ["紅茶", "G", "Amy", "35"])])
        #expect(fetched.groups?.rows == [.init(number: 2, cells: ["G", "TWD"])])
        #expect(fetched.rates?.rates["TWD"] == Decimal(string: "32.125"))
    }

    /// A sheet read page by page: the fingerprint covers every page, the last one too.
    @Test func aPagedSheetsFingerprintCoversEveryPage() async throws {
        func fingerprint(lastPrice: String) async throws -> String {
            var changed = F.rows
            changed[4]["price"] = lastPrice
            let rows = changed
            return try await LocalServer.with({ request, _ in Reply.page(of: rows, for: request) }) { server in
                let fetcher = try F.fetcher(F.toml(server, orders: "page_size = 2"), in: TestSupport.temporaryFolder())
                let downloaded = try await fetcher.download()
                #expect(downloaded.requests == 3)
                return downloaded.fingerprint
            }
        }
        let first = try await fingerprint(lastPrice: "35")
        #expect(try await fingerprint(lastPrice: "35") == first)
        #expect(try await fingerprint(lastPrice: "36") != first)
    }
}
