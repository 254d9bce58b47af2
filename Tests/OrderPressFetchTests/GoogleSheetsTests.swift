import Foundation
import Testing
import _CryptoExtras

@testable import OrderPressSupport
@testable import OrderPressConfig
@testable import OrderPressFetch
import OrderPressTestSupport

/// Sheets read straight from the Google Sheets API (a loopback stand-in of it and of the token endpoint):
/// an API key or a service account, one request per spreadsheet, raw values read as SheetDB's raw values
/// are, errors that say what to fix, and no key or token anywhere.
@Suite struct GoogleSheetsTests {
    typealias G = GoogleStandIn
    static let keyVariable = "ORDERPRESS_TEST_GOOGLE_KEY"
    static let credentialsVariable = "ORDERPRESS_TEST_GOOGLE_CREDENTIALS"

    /// A Form's response tab as the API sends it with UNFORMATTED_VALUE: numbers and serials as JSON
    /// numbers, a checkbox as a boolean, trailing empty cells left out (row 3 ends after the name; row 5
    /// has no note and no checkbox), and an empty row in the middle.
    static let orders = """
        [["時間戳記", "orderer", "group", "drink", "price", "paid", "editCode", "note"],
         [46347.635416666664, "Amy", "週五下午茶", "紅茶", 35, true, "EDIT-amy-x9", "少冰"],
         [46347.5, "Ben"],
         [],
         [46347.75, "陳怡君", "週五下午茶", "綠茶", 1234.5, false, "EDIT-chen-q2"]]
        """
    static let groups = """
        [["group", "organizer", "deadline"], ["週五下午茶", "Amy", 46347.75]]
        """
    /// A tab name that needs quoting and encoding: a space, a quote, letters beyond ASCII.
    static let ordersTab = "表單回應 1 'Friday'"

    static func toml(_ google: GoogleStandIn, credentials: String, groups: Bool = false, orders: String = "", spreadsheet: String = G.spreadsheetID) -> String {
        """
        base_currency = "TWD"
        [orders]
        google_sheet = "https://docs.google.com/spreadsheets/d/\(spreadsheet)/edit#gid=0"
        tab = "\(ordersTab)"
        \(credentials)
        google_api_url = "\(google.url(""))"
        \(orders)
        [orders.columns]
        time = "時間戳記"
        \(groups ? """
        [groups]
        google_sheet = "\(G.spreadsheetID)"
        tab = "groups"
        \(credentials)
        google_api_url = "\(google.url(""))"
        """ : "")
        """
    }

    static var apiKey: String { "api_key_env = \"\(keyVariable)\"" }
    static var serviceAccount: String { "credentials_env = \"\(credentialsVariable)\"" }

    static func fetcher(
        _ toml: String, in folder: URL, environment: [String: String], offline: Bool = false
    ) throws -> Fetcher {
        var policy = RetryPolicy()
        policy.random = { 0.5 }
        policy.sleep = { _ in }
        return try Fetcher(
            configuration: TestSupport.configuration(toml, in: folder), clock: Clock(now: FetchFixture.now), environment: environment,
            options: .init(offline: offline), transport: URLSessionTransport(), retryPolicy: policy)
    }

    static func environment(_ google: GoogleStandIn, in folder: URL) throws -> [String: String] {
        [keyVariable: G.apiKey, credentialsVariable: try google.keyFile(in: folder).path]
    }

    static func cell(_ table: SourceTable, _ row: Int, _ header: String) -> String {
        table.rows[row].cells[table.headers.firstIndex(of: header)!]
    }

    /// Every file under `folder` holds none of `secrets`.
    static func expectNoSecrets(_ secrets: [String], in folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for path in TestSupport.files(in: folder) {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(path))
            for secret in secrets {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(path) holds \(secret.prefix(6))…", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func anAPIKeyReadsASheetSharedByLinkInOneRequest() async throws {
        try await G.with(sheets: [G.spreadsheetID: [Self.ordersTab: Self.orders]], sharing: .anyoneWithTheLink) { google in
            let folder = TestSupport.temporaryFolder()
            let fetched = try await Self.fetcher(
                Self.toml(google, credentials: Self.apiKey), in: folder, environment: [Self.keyVariable: G.apiKey]).fetch()
            let table = fetched.orders
            #expect(fetched.requests == 1)
            let requests = await google.requests
            #expect(requests.count == 1)
            let request = try #require(requests.first)
            // The tab quoted (its quote doubled) and percent-encoded in the path.
            #expect(request.rawPath == "/v4/spreadsheets/\(G.spreadsheetID)/values/%27%E8%A1%A8%E5%96%AE%E5%9B%9E%E6%87%89%201%20%27%27Friday%27%27%27")
            #expect(request.values("key") == [G.apiKey])
            #expect(request.values("valueRenderOption") == ["UNFORMATTED_VALUE"])
            #expect(request.values("dateTimeRenderOption") == ["SERIAL_NUMBER"])
            #expect(request.authorization == nil)

            // Rows numbered as the sheet numbers them, the empty row 4 kept (as a blank row), short rows padded.
            #expect(table.rows.map(\.number) == [2, 3, 4, 5])
            #expect(table.rows.allSatisfy { $0.cells.count == table.headers.count })
            #expect(table.sheetOrder == ["時間戳記", "orderer", "group", "drink", "price", "paid", "editCode", "note"])
            // Raw values as the SheetDB JSON path reads them: the serial's exact digits, TRUE/FALSE, a number's decimal.
            #expect(Self.cell(table, 0, "時間戳記") == "46347.635416666664")
            #expect(Self.cell(table, 0, "paid") == "TRUE")
            #expect(Self.cell(table, 0, "price") == "35")
            #expect(Self.cell(table, 3, "price") == "1234.5")
            #expect(Self.cell(table, 3, "paid") == "FALSE")
            #expect(Self.cell(table, 1, "orderer") == "Ben")
            #expect(Self.cell(table, 1, "price") == "")
            #expect(Self.cell(table, 3, "note") == "")
            #expect(table.rows[2].cells.allSatisfy { $0.isEmpty })

            // The same cells as SheetDB's raw mode gives for the same rows.
            let sheetDB = try SheetParser.parseJSON(
                Data(#"[{"時間戳記": 46347.635416666664, "orderer": "Amy", "group": "週五下午茶", "drink": "紅茶", "price": 35, "paid": true, "editCode": "EDIT-amy-x9", "note": "少冰"}]"#.utf8),
                source: "orders")
            #expect(sheetDB.headers == table.headers)
            #expect(sheetDB.rows[0].cells == table.rows[0].cells)

            // The cached copy keeps no key, no secret cell.
            try Self.expectNoSecrets([G.apiKey, "EDIT-amy-x9", "EDIT-chen-q2"], in: folder)
        }
    }

    @Test func aServiceAccountSignsOneTokenRequestAndReadsBothTabsInOneBatch() async throws {
        let tabs = [Self.ordersTab: Self.orders, "groups": Self.groups]
        try await G.with(sheets: [G.spreadsheetID: tabs]) { google in
            let folder = TestSupport.temporaryFolder()
            let fetched = try await Self.fetcher(
                Self.toml(google, credentials: Self.serviceAccount, groups: true), in: folder,
                environment: try Self.environment(google, in: folder)).fetch()
            #expect(await google.problems == [])
            let requests = await google.requests
            // One token request, then one batchGet for both tabs.
            #expect(requests.map(\.isToken) == [true, false])
            #expect(fetched.requests == 2)
            let batch = requests[1]
            #expect(batch.rawPath == "/v4/spreadsheets/\(G.spreadsheetID)/values:batchGet")
            #expect(batch.values("ranges") == ["'\(Self.ordersTab.replacingOccurrences(of: "'", with: "''"))'", "'groups'"])
            #expect(batch.authorization == "Bearer \(G.accessToken)")
            #expect(batch.values("key").isEmpty)
            #expect(Self.cell(fetched.orders, 0, "orderer") == "Amy")
            let groups = try #require(fetched.groups)
            #expect(groups.rows.map(\.cells) == [["46347.75", "週五下午茶", "Amy"]])
            try Self.expectNoSecrets(google.secrets + ["EDIT-amy-x9"], in: folder.appendingPathComponent("output"))
        }
    }

    /// A payments tab of the orders' spreadsheet is read in the same `values:batchGet` (issue 34).
    @Test func aPaymentsTabIsReadInTheSameBatch() async throws {
        let payments = #"[["person", "amount", "group"], ["Ben", 45, "週五下午茶"]]"#
        try await G.with(sheets: [G.spreadsheetID: [Self.ordersTab: Self.orders, "payments": payments]]) { google in
            let folder = TestSupport.temporaryFolder()
            let toml = Self.toml(google, credentials: Self.serviceAccount) + """

                [payments]
                google_sheet = "\(G.spreadsheetID)"
                tab = "payments"
                \(Self.serviceAccount)
                google_api_url = "\(google.url(""))"
                """
            let fetched = try await Self.fetcher(toml, in: folder, environment: try Self.environment(google, in: folder)).fetch()
            #expect(await google.problems == [])
            let requests = await google.requests
            #expect(requests.map(\.isToken) == [true, false])
            #expect(requests[1].values("ranges") == ["'\(Self.ordersTab.replacingOccurrences(of: "'", with: "''"))'", "'payments'"])
            #expect(fetched.payments?.rows.map(\.cells) == [["45", "週五下午茶", "Ben"]])
        }
    }

    @Test func theTokenIsAskedForOncePerRunAcrossSpreadsheets() async throws {
        let sheets = [G.spreadsheetID: [Self.ordersTab: Self.orders], G.otherSpreadsheetID: ["groups": Self.groups]]
        try await G.with(sheets: sheets) { google in
            let folder = TestSupport.temporaryFolder()
            let toml = Self.toml(google, credentials: Self.serviceAccount, groups: true)
                .replacingOccurrences(of: "google_sheet = \"\(G.spreadsheetID)\"", with: "google_sheet = \"\(G.otherSpreadsheetID)\"")
            let fetched = try await Self.fetcher(toml, in: folder, environment: try Self.environment(google, in: folder)).fetch()
            let requests = await google.requests
            #expect(requests.filter(\.isToken).count == 1)
            #expect(requests.filter { !$0.isToken }.map(\.authorization) == ["Bearer \(G.accessToken)", "Bearer \(G.accessToken)"])
            #expect(fetched.requests == 3)
            #expect(fetched.groups?.rows.count == 1)
        }
    }

    @Test func offlineReadsTheCachedCopyWithoutCredentials() async throws {
        try await G.with(sheets: [G.spreadsheetID: [Self.ordersTab: Self.orders]]) { google in
            let folder = TestSupport.temporaryFolder()
            let toml = Self.toml(google, credentials: Self.serviceAccount)
            let online = try await Self.fetcher(toml, in: folder, environment: try Self.environment(google, in: folder)).fetch()
            let before = await google.requests.count
            // No variable set: --offline asks nobody, so it needs no credentials.
            let offline = try await Self.fetcher(toml, in: folder, environment: [:], offline: true).fetch()
            #expect(await google.requests.count == before)
            #expect(offline.requests == 0)
            #expect(offline.orders.headers == online.orders.headers)
            #expect(Self.cell(offline.orders, 0, "時間戳記") == "46347.635416666664")
            #expect(Self.cell(offline.orders, 0, "paid") == "TRUE")
            // The secret column is masked in the copy.
            #expect(Self.cell(offline.orders, 0, "editCode") != "EDIT-amy-x9")
            try Self.expectNoSecrets(google.secrets + ["EDIT-amy-x9", G.spreadsheetID], in: folder.appendingPathComponent("output"))

            // Another tab's configuration does not read this copy.
            let other = toml.replacingOccurrences(of: "tab = ", with: "tab = \"groups\"\n# was ")
            let error = await #expect(throws: SourceError.self) { try await Self.fetcher(other, in: folder, environment: [:], offline: true).fetch() }
            #expect(error?.message.contains("--offline, but") == true)
            #expect(error?.message.contains(G.spreadsheetID) == false)
        }
    }

    /// Each failure says what to fix, and names neither a key, a token nor the spreadsheet's id.
    @Test(arguments: [
        (G.Sharing.nobody, "service", G.spreadsheetID, "tab", "share the sheet with \(G.clientEmail)"),
        (G.Sharing.serviceAccountOnly, "key", G.spreadsheetID, "tab", "anyone with the link"),
        (G.Sharing.serviceAccountOnly, "service", "1NoSuchSheet0000000000000000000000000000000", "tab", "check it (the part of the sheet's address after /d/)"),
        (G.Sharing.serviceAccountOnly, "service", G.spreadsheetID, "Form Responses 1", "no tab named 'Form Responses 1' ([orders] tab)"),
    ])
    func failuresSayWhatToFix(sharing: G.Sharing, credentials: String, spreadsheet: String, tab: String, hint: String) async throws {
        try await G.with(sheets: [G.spreadsheetID: [Self.ordersTab: Self.orders]], sharing: sharing) { google in
            let folder = TestSupport.temporaryFolder()
            var toml = Self.toml(google, credentials: credentials == "key" ? Self.apiKey : Self.serviceAccount, spreadsheet: spreadsheet)
            if tab != "tab" { toml = toml.replacingOccurrences(of: "tab = ", with: "tab = \"\(tab)\"\n# was ") }
            let fetcher = try Self.fetcher(toml, in: folder, environment: try Self.environment(google, in: folder))
            let error = await #expect(throws: SourceError.self) { try await fetcher.fetch() }
            let message = error?.description ?? ""
            #expect(message.contains(hint), "\(message)")
            #expect(error?.exitStatus == .unavailable)
            for secret in google.secrets + [G.spreadsheetID] { #expect(!message.contains(secret), "\(message)") }
        }
    }

    @Test func aRefusedTokenRequestIsOneClearLine() async throws {
        try await G.with(sheets: [G.spreadsheetID: [Self.ordersTab: Self.orders]]) { google in
            let folder = TestSupport.temporaryFolder()
            // A key of another account: the stand-in's signature check fails.
            let file = try google.keyFile(in: folder)
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: String])
            object["private_key"] = try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8PEMRepresentation
            try JSONSerialization.data(withJSONObject: object).write(to: file)
            let fetcher = try Self.fetcher(Self.toml(google, credentials: Self.serviceAccount), in: folder, environment: [Self.credentialsVariable: file.path])
            let error = await #expect(throws: SourceError.self) { try await fetcher.fetch() }
            let message = error?.description ?? ""
            #expect(message.contains("token request to 127.0.0.1 failed (HTTP 400, invalid_grant)"), "\(message)")
            #expect(!message.contains("\n"))
            #expect(await google.problems == ["Invalid JWT Signature."])
            #expect(await google.requests.filter { !$0.isToken }.isEmpty)
        }
    }

    /// Configuration mistakes exit 64 before any request, naming the key or the variable.
    @Test(arguments: [
        ("google_sheet = \"1AbC_def-123\"\ntab = \"x\"\napi_key_env = \"NOPE_UNSET\"", "'orders.api_key_env' names NOPE_UNSET, which is unset or empty"),
        ("google_sheet = \"1AbC_def-123\"\ntab = \"x\"\ncredentials_env = \"NOPE_UNSET\"", "'orders.credentials_env' names NOPE_UNSET, which is unset or empty"),
        ("google_sheet = \"1AbC_def-123\"\ntab = \"x\"\ncredentials_env = \"BAD_FILE\"", "is not a service account's key file"),
        ("google_sheet = \"1AbC_def-123\"\ntab = \"x\"\ncredentials_env = \"MISSING_FILE\"", "cannot be read"),
        ("google_sheet = \"1AbC_def-123\"\napi_key_env = \"K\"", "'orders.tab' is required with google_sheet"),
        ("google_sheet = \"1AbC_def-123\"\ntab = \"x\"", "needs api_key_env"),
        ("google_sheet = \"1AbC_def-123\"\ntab = \"x\"\napi_key_env = \"K\"\ncredentials_env = \"C\"", "not both"),
        ("google_sheet = \"1AbC_def-123\"\ntab = \"x\"\napi_key_env = \"K\"\nurl = \"https://sheetdb.io/api/v1/x\"", "one of url, path or google_sheet"),
        ("google_sheet = \"https://example.org/spreadsheets/d/abc/edit\"\ntab = \"x\"\napi_key_env = \"K\"", "'orders.google_sheet' must be a spreadsheet's id"),
        ("path = \"o.csv\"\ntab = \"x\"", "'orders.tab' belongs with google_sheet"),
        // A token only a url source sends: on a sheet or a file it would be ignored, and the user misled.
        ("google_sheet = \"1AbC_def-123\"\ntab = \"x\"\napi_key_env = \"K\"\ntoken_env = \"T\"", "'orders.token_env' is sent only to a url source; a google_sheet reads"),
        ("path = \"o.csv\"\ntoken_env = \"T\"", "'orders.token_env' is sent only to a url source; remove it"),
    ])
    func configurationMistakesExit64(orders: String, expected: String) throws {
        let folder = TestSupport.temporaryFolder()
        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"type": "service_account"}"#.utf8).write(to: bad)
        let environment = ["BAD_FILE": bad.path, "MISSING_FILE": folder.appendingPathComponent("none.json").path]
        do {
            _ = try Self.fetcher("[orders]\n\(orders)\n", in: folder, environment: environment)
            Issue.record("expected a configuration error")
        } catch let error as ConfigurationError {
            #expect(error.description.contains(expected), "\(error.description)")
            #expect(error.exitStatus == .usage)
        }
    }

    @Test(arguments: [
        ("1AbC_def-123", "1AbC_def-123"),
        ("https://docs.google.com/spreadsheets/d/1AbC_def-123/edit#gid=0", "1AbC_def-123"),
        ("https://docs.google.com/spreadsheets/d/1AbC_def-123", "1AbC_def-123"),
        ("https://docs.google.com/spreadsheets/u/1/d/1AbC_def-123/edit?usp=sharing", "1AbC_def-123"),
    ])
    func anIdOrAnAddressNamesTheSpreadsheet(value: String, id: String) throws {
        let configuration = try TestSupport.configuration("[orders]\ngoogle_sheet = \"\(value)\"\ntab = \"t\"\napi_key_env = \"K\"\n")
        guard case .googleSheet(let sheet) = configuration.orders.location else {
            Issue.record("not a Google Sheet source")
            return
        }
        #expect(sheet.spreadsheetID == id)
        #expect(sheet.apiURL.absoluteString == "https://sheets.googleapis.com")
    }

    @Test func messagesShowNeitherTheKeyNorTheSpreadsheetID() {
        let url = GoogleSheetsReader.url(
            [GoogleSheetSource(spreadsheetID: G.spreadsheetID, tab: "a b", credentials: .apiKey(variable: "K"), apiURL: GoogleSheetSource.defaultAPIURL)],
            apiKey: G.apiKey)
        let shown = URLRedactor.display(url)
        #expect(!shown.contains(G.apiKey) && !shown.contains(G.spreadsheetID), "\(shown)")
        #expect(shown.contains("valueRenderOption=UNFORMATTED_VALUE"))
    }
}
