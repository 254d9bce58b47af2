import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch
@testable import OrderPressValidate
import OrderPressTestSupport

@Suite struct ValidatorTests {

    @Test func acceptsAGoodRowAndNormalisesIt() throws {
        let data = try ValidatorFixtures.validate([ValidatorFixtures.row(person: "  Amy \t Chen ", item: "e\u{301}clair", quantity: "2", price: "1,200.5")])
        #expect(data.rejected == [])
        let order = try #require(data.orders.first)
        #expect(order.person == "Amy Chen")
        #expect(order.personKey.text == "amychen")
        #expect(order.item == "\u{E9}clair")
        #expect(order.options == ["L", "半糖", "少冰"])
        #expect(order.quantity == 2)
        #expect(order.unitPrice == Decimal(string: "1200.5")!)
        #expect(order.amount == Decimal(string: "2401")!)
        #expect(order.currency == "TWD")
        #expect(order.id == "1")
        #expect(order.time.map(Timestamp.iso8601) == "2026-11-21T09:15:00Z")
    }

    @Test(arguments: [
        (ValidatorFixtures.row(person: ""), ["person is missing (column 'orderer')"]),
        (ValidatorFixtures.row(item: " "), ["item is missing (column 'drink')"]),
        (ValidatorFixtures.row(group: ""), ["group is missing (column 'group')"]),
        (ValidatorFixtures.row(price: ""), ["price is missing (column 'price')"]),
        (ValidatorFixtures.row(price: "-5"), ["price must not be negative"]),
        (ValidatorFixtures.row(price: "US$35"), ["price 'US$35' is marked US$, which is not TWD, the order's currency"]),
        (ValidatorFixtures.row(price: "€1.23"), ["price '€1.23' is marked €, which is not TWD, the order's currency"]),
        (ValidatorFixtures.row(price: "35杯"), ["price '35杯' is not a plain number; write 35 (the currency belongs in the currency column or the group)"]),
        (ValidatorFixtures.row(price: "thirty"), ["price 'thirty' is not a number"]),
        (ValidatorFixtures.row(price: "1,20"), ["price '1,20' is written with another decimal mark than the sheet's; set decimal_separator = \",\" in [orders] if the sheet writes numbers that way"]),
        (ValidatorFixtures.row(quantity: "0"), ["quantity must be a whole number from 1 to 10,000 (found '0')"]),
        (ValidatorFixtures.row(quantity: "-1"), ["quantity must be a whole number from 1 to 10,000 (found '-1')"]),
        (ValidatorFixtures.row(quantity: "1.5"), ["quantity must be a whole number from 1 to 10,000 (found '1.5')"]),
        (ValidatorFixtures.row(currency: "XYZ"), ["unknown currency 'XYZ'"]),
        (ValidatorFixtures.row(person: "", quantity: "0", price: "-1"),
         ["person is missing (column 'orderer')", "price must not be negative", "quantity must be a whole number from 1 to 10,000 (found '0')"]),
    ])
    func rejectsWithEveryReason(row: [String], reasons: [String]) throws {
        let data = try ValidatorFixtures.validate([ValidatorFixtures.row(id: "7"), row])
        #expect(data.orders.count == 1)
        #expect(data.rejected.map(\.reasons) == [reasons])
        #expect(data.rejected.first?.row == 3)
        #expect(data.rowsRead == data.orders.count + data.rejected.count)
    }

    @Test func rejectedRowsShowMappedValuesWithSecretsMasked() throws {
        let data = try ValidatorFixtures.validate([ValidatorFixtures.row(price: "-5")])
        let rejected = try #require(data.rejected.first)
        #expect(rejected.values.map(\.column) == ["id", "group", "orderer", "drink", "size", "sugar", "ice", "quantity", "price", "currency", "time", "note", "editCode"])
        #expect(rejected.values.first { $0.column == "editCode" }?.value == "•••")
        #expect(!rejected.values.contains { $0.value.contains("s3cr3tC0de") || $0.value.contains("0912") })
    }

    @Test func unmappedColumnsAreReportedByNameOnly() throws {
        let data = try ValidatorFixtures.validate([ValidatorFixtures.row()])
        #expect(data.warnings == [DataWarning(row: nil, message: "orders: column 'phone' is not mapped in the configuration and is not published")])
    }

    @Test func groupsSourceDecidesKnownGroupsAndCurrency() throws {
        let groups = TestSupport.table(["group", "currency"], [["週五下午茶", "TWD"], ["Tokyo", "JPY"]], name: "groups")
        let data = try ValidatorFixtures.validate(
            [ValidatorFixtures.row(), ValidatorFixtures.row(id: "2", group: "Tokyo", price: "480"), ValidatorFixtures.row(id: "3", group: "Nowhere"),
             ValidatorFixtures.row(id: "4", group: "Tokyo", currency: "USD")],
            groups: groups)
        #expect(data.groups.map(\.name) == ["週五下午茶", "Tokyo"])
        #expect(data.orders.map(\.currency) == ["TWD", "JPY"])
        #expect(data.rejected.map(\.reasons) == [["unknown group 'Nowhere'"], ["currency 'USD' differs from group 'Tokyo' currency 'JPY'"]])
    }

    /// Each range of rows finds a group it met before by the name's words (`TextBits`): whatever names
    /// the rows repeat, in whatever order, each row gets exactly the group (or the reason) its name gives.
    @Test func everyRowFindsItsListedGroupWhateverNamesCameBefore() async throws {
        let listed = ["週五下午茶", "Tokyo", "團購 00067", "A group whose name is longer than fifteen bytes", "é"]
        // Unknown names, no name, and "é" written decomposed (the same name once normalised).
        let others = ["Nowhere", "團購 99999", "An unknown group whose name is long", "e\u{301}x", "", "e\u{301}"]
        let groups = TestSupport.table(["group", "currency"], listed.map { [$0, "TWD"] }, name: "groups")
        let names = Generator<[String], Shrink.None<[String]>> { rng in
            (0..<Int.random(in: 1...40, using: &rng)).map { _ in (listed + others).randomElement(using: &rng)! }
        }
        await propertyCheck(count: 200, input: names) { names in
            let rows = names.enumerated().map { ValidatorFixtures.row(id: "\($0.offset)", group: $0.element) }
            guard let data = try? ValidatorFixtures.validate(rows, groups: groups) else { return #expect(Bool(false)) }
            let known = names.indices.filter { listed.contains(names[$0]) }
            #expect(data.orders.map(\.row) == known.map { $0 + 2 })
            #expect(data.orders.map(\.group) == known.map { names[$0] })
            #expect(data.rejected.map(\.reasons) == names.filter { !listed.contains($0) }.map {
                $0.isEmpty ? ["group is missing (column 'group')"] : ["unknown group '\($0)'"]
            })
            #expect(data.groups.map(\.name) == listed)
        }
    }

    @Test func withoutGroupsSourceGroupsComeFromOrdersInOrder() throws {
        let data = try ValidatorFixtures.validate([
            ValidatorFixtures.row(group: "B", currency: "USD"), ValidatorFixtures.row(id: "2", group: "A"), ValidatorFixtures.row(id: "3", group: "B"),
        ])
        #expect(data.groups.map(\.name) == ["B", "A"])
        #expect(data.groups.map(\.currency) == ["USD", "TWD"])
        #expect(data.orders.map(\.currency) == ["USD", "TWD", "USD"])
    }

    @Test func flagsOverLongTextButKeepsIt() throws {
        let long = String(repeating: "長", count: 31)
        let data = try ValidatorFixtures.validate([ValidatorFixtures.row(person: long, note: String(repeating: "n", count: 501))])
        #expect(data.orders.first?.person == long)
        #expect(data.warnings.filter { $0.row == 2 }.map(\.message) == ["note longer than 500 characters", "person longer than 30 characters"])
    }

    @Test func unreadableTimeIsAWarning() throws {
        let data = try ValidatorFixtures.validate([ValidatorFixtures.row(time: "lunchtime")])
        #expect(data.orders.first?.time == nil)
        #expect(data.orders.first?.timeText == "lunchtime")
        #expect(data.warnings.contains(DataWarning(row: 2, message: "time 'lunchtime' is not a date and time OrderPress reads and is shown as written (write it like 2026-11-21 09:15)")))
    }

    @Test func duplicateIdsAreAWarning() throws {
        let data = try ValidatorFixtures.validate([ValidatorFixtures.row(id: "5"), ValidatorFixtures.row(id: "5", person: "Ben")])
        #expect(data.warnings.contains(DataWarning(row: 2, message: "id '5' is used by rows 2, 3; they are matched by content instead")))
    }

    /// A sheet long enough to be read in two halves on two cores gives what one pass would: ids counted
    /// across the halves, a group's currency decided by the votes of both, every row in sheet order.
    @Test func aSheetReadInChunksIsValidatedAsOne() throws {
        let count = 2 * Parallel.minimumChunk + 2
        var rows = (0..<count).map { ValidatorFixtures.row(id: "r\($0)", price: "\($0 % 90 + 10)") }
        rows[1] = ValidatorFixtures.row(id: "dup", person: "Ben")
        rows[count - 3] = ValidatorFixtures.row(id: "dup", person: "Cho")
        // Tokyo's currency is left to its orders: 2 + 2 for JPY, 3 for USD, split between the halves.
        for (index, currency) in [(10, "JPY"), (11, "JPY"), (count - 10, "JPY"), (count - 9, "JPY"), (count - 8, "USD"), (count - 7, "USD"), (count - 6, "USD")] {
            rows[index] = ValidatorFixtures.row(id: "t\(index)", group: "Tokyo", price: "480", currency: currency)
        }
        rows[count - 5] = ValidatorFixtures.row(id: "n", group: "Nowhere")
        let groups = TestSupport.table(["group", "currency"], [["週五下午茶", "TWD"], ["Tokyo", ""]], name: "groups")
        let sheet = try ValidatorFixtures.sheet(rows, groups: groups)
        let data = sheet.data

        #expect(data.groups.map(\.currency) == ["TWD", "JPY"])
        let rejected = [count - 8, count - 7, count - 6, count - 5]
        #expect(data.rejected.map(\.row) == rejected.map { $0 + 2 })
        #expect(data.rejected.map(\.reasons) == Array(repeating: ["currency 'USD' differs from group 'Tokyo' currency 'JPY'"], count: 3) + [["unknown group 'Nowhere'"]])
        #expect(data.orders.map(\.row) == (0..<count).filter { !rejected.contains($0) }.map { $0 + 2 })
        #expect(data.orders.map(\.currency).filter { $0 == "JPY" }.count == 4)
        #expect(data.warnings.filter { $0.message.hasPrefix("id ") } == [DataWarning(row: 3, message: "id 'dup' is used by rows 3, \(count - 1); they are matched by content instead")])
        #expect(sheet.rows.map(\.row) == (0..<count).map { $0 + 2 })
        // The repeated id is no identity in either half: both rows are identified as a sheet of just them would be.
        let alone = try ValidatorFixtures.sheet([rows[1], rows[count - 3]])
        #expect([sheet.rows[1].identity, sheet.rows[count - 3].identity] == alone.rows.map(\.identity))
        #expect(sheet.rows[1].identity != (try ValidatorFixtures.sheet([rows[1]])).rows[0].identity)
    }

    @Test func missingRequiredColumnStopsTheBuild() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        #expect(throws: DataError(message: "orders: column 'price' (price) is not in the sheet (headers found: 'group', 'orderer', 'drink'); rename the header or fix [orders.columns] in the configuration")) {
            try Validator(configuration: configuration).validate(
                orders: TestSupport.table(["group", "orderer", "drink"], [["G", "Amy", "tea"]]), groups: nil)
        }
    }

    @Test func aMissingGroupNameColumnInTheGroupsSheetStopsTheBuild() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let groups = TestSupport.table(["name", "shop"], [["週五下午茶", "春日茶屋"]], name: "groups")
        #expect(throws: DataError(message: "groups: column 'group' (group name) is not in the sheet (headers found: 'name', 'shop'); rename the header or fix [groups.columns] in the configuration")) {
            try Validator(configuration: configuration).validate(orders: TestSupport.table(ValidatorFixtures.headers, [ValidatorFixtures.row()]), groups: groups)
        }
    }

    @Test func everyMissingRequiredColumnIsNamedOnOneLineWithHeadersOnly() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let long = String(repeating: "x", count: 100)
        let table = TestSupport.table(["", "orderer", "drink", long], [["s3cr3t", "Amy", "tea", "v"]])
        do {
            _ = try Validator(configuration: configuration).validate(orders: table, groups: nil)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "orders: columns 'group' (group) and 'price' (price) are not in the sheet (headers found: 'orderer', 'drink', '\(String(repeating: "x", count: 39))…'); rename the header or fix [orders.columns] in the configuration")
            #expect(error.exitStatus == .dataError)
        }
    }

    /// A JSON sheet without rows has no headers to check: that is an emptied sheet, for the deletion guard.
    @Test func aSheetWithoutRowsOrHeadersIsNoMissingColumn() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let data = try Validator(configuration: configuration).validate(orders: TestSupport.table([], []), groups: nil)
        #expect(data.rowsRead == 0)
        #expect(throws: DataError.self) {
            try Validator(configuration: configuration).validate(orders: TestSupport.table(["group"], []), groups: nil)
        }
    }

    @Test func malformedRowsAreRejectedWithoutAnyValue() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        var table = TestSupport.table(ValidatorFixtures.headers, [ValidatorFixtures.row(), ValidatorFixtures.row(id: "3", price: "x")])
        table.rows[1].number = 4
        table.malformed = [.init(number: 3, fieldCount: 15), .init(number: 5, fieldCount: 1)]
        let data = try Validator(configuration: configuration).validate(orders: table, groups: nil)
        #expect(data.rowsRead == 4)
        #expect(data.orders.map(\.row) == [2])
        #expect(data.rejected.map(\.row) == [3, 4, 5])
        #expect(data.rejected[0] == RejectedRow(row: 3, values: [], reasons: ["has 15 fields but the header has 14; its cells cannot be matched to columns"]))
        #expect(data.rejected[2].reasons == ["has 1 field but the header has 14; its cells cannot be matched to columns"])
    }

    /// A groups row that does not fit its header is ignored by row number only; its orders become unknown-group rows.
    @Test func aMalformedGroupsRowIsIgnoredWithoutItsValues() throws {
        let groups = try SheetParser.parse(Data("group,shop\n週五下午茶,\"春日茶屋\"\nS3cretGroup,a,b\n".utf8), format: .csv, source: "groups")
        let data = try ValidatorFixtures.validate([ValidatorFixtures.row(), ValidatorFixtures.row(id: "2", group: "S3cretGroup")], groups: groups)
        #expect(data.groups.map(\.name) == ["週五下午茶"])
        #expect(data.warnings.contains(DataWarning(row: nil, message: "groups row 3 has 3 fields but the header has 2 and is ignored")))
        #expect(!data.warnings.contains { $0.message.contains("S3cret") })
        #expect(data.rejected.map(\.reasons) == [["unknown group 'S3cretGroup'"]])
    }

    @Test func aRepeatedUnmappedHeaderIsReported() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let table = TestSupport.table(ValidatorFixtures.headers + ["phone", ""], [ValidatorFixtures.row() + ["0900-000-000", "x"]])
        let data = try Validator(configuration: configuration).validate(orders: table, groups: nil)
        #expect(data.orders.count == 1)
        #expect(data.warnings.contains(DataWarning(row: nil, message: "orders: column 'phone' appears 2 times in the header; only the first is read")))
    }

    /// Which of two `note` columns is published? Neither: one may be what the owner meant to hide.
    @Test(arguments: [
        (["note"], "orders: column 'note' appears 2 times in the header (columns 12, 15); rename all but one, so that it is clear which one is read"),
        (["editCode", "orderer"], "orders: column 'orderer' appears 2 times in the header (columns 3, 16); rename all but one, so that it is clear which one is read"),
    ])
    func aRepeatedMappedHeaderStopsTheBuild(extra: [String], message: String) throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let table = TestSupport.table(ValidatorFixtures.headers + extra, [ValidatorFixtures.row() + extra.map { _ in "private" }])
        #expect(throws: DataError(message: message)) { try Validator(configuration: configuration).validate(orders: table, groups: nil) }
    }

    /// A look-alike key (with an invisible character) does not displace the real column in a JSON sheet.
    @Test func aLookAlikeJSONKeyDoesNotDisplaceTheRealColumn() throws {
        let json = #"[{"group": "G", "orderer": "Amy", "drink": "tea", "price": "35", "備註": "public", "備\u200b註": "private"}]"#
        let table = try SheetParser.parse(Data(json.utf8), format: .json, source: "orders")
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML + "\n[orders.columns]\nnote = \"備註\"")
        let data = try Validator(configuration: configuration).validate(orders: table, groups: nil)
        #expect(data.orders.map(\.note) == ["public"])
    }

    /// Quantities and prices are bounded, so that no sum can overflow; everything else is a plain reason.
    @Test(arguments: [
        (ValidatorFixtures.row(quantity: "9223372036854775807"), "quantity must be a whole number from 1 to 10,000 (found '9223372036854775807')"),
        (ValidatorFixtures.row(quantity: "99999999999999999999999"), "quantity must be a whole number from 1 to 10,000 (found '99999999999999999999999')"),
        (ValidatorFixtures.row(quantity: "10001"), "quantity must be a whole number from 1 to 10,000 (found '10001')"),
        (ValidatorFixtures.row(quantity: "1e5"), "quantity must be a whole number from 1 to 10,000 (found '1e5')"),
        (ValidatorFixtures.row(quantity: "0x10"), "quantity must be a whole number from 1 to 10,000 (found '0x10')"),
        (ValidatorFixtures.row(quantity: "١٢"), "quantity must be a whole number from 1 to 10,000 (found '١٢')"),
        (ValidatorFixtures.row(quantity: "+3"), "quantity must be a whole number from 1 to 10,000 (found '+3')"),
        (ValidatorFixtures.row(quantity: "--5"), "quantity must be a whole number from 1 to 10,000 (found '--5')"),
        (ValidatorFixtures.row(price: "1234567890123"), "price '1234567890123' has more than 12 digits before the point or 6 after"),
        (ValidatorFixtures.row(price: "1,234,567,890,123"), "price '1,234,567,890,123' has more than 12 digits before the point or 6 after"),
        (ValidatorFixtures.row(price: "0.1234567"), "price '0.1234567' has more than 12 digits before the point or 6 after"),
        (ValidatorFixtures.row(price: "9223372036854775807"), "price '9223372036854775807' has more than 12 digits before the point or 6 after"),
        (ValidatorFixtures.row(price: "1e5"), "price '1e5' is not a number"),
        (ValidatorFixtures.row(price: "1E-3"), "price '1E-3' is not a number"),
        (ValidatorFixtures.row(price: "0x10"), "price '0x10' is not a number"),
        (ValidatorFixtures.row(price: "١٢"), "price '١٢' is not a number"),
        (ValidatorFixtures.row(price: "1.2.3"), "price '1.2.3' is not a number"),
        (ValidatorFixtures.row(price: "--5"), "price '--5' is not a number"),
        (ValidatorFixtures.row(price: "-+5"), "price '-+5' is not a number"),
        (ValidatorFixtures.row(price: "NaN"), "price 'NaN' is not a number"),
    ])
    func rejectsNumbersOutOfBounds(row: [String], reason: String) throws {
        let data = try ValidatorFixtures.validate([row])
        #expect(data.rejected.map(\.reasons) == [[reason]])
    }

    @Test(arguments: [
        ("10,000", "999,999,999,999.999999", "9999999999999999.99", 10_000),
        ("1", "000000000000035.5000000", "35.5", 1),
        ("0003", ".5", "1.5", 3),
        ("", "0", "0", 1),
    ])
    func acceptsNumbersAtTheBounds(quantity: String, price: String, amount: String, expected: Int) throws {
        let data = try ValidatorFixtures.validate([ValidatorFixtures.row(quantity: quantity, price: price)])
        #expect(data.rejected == [])
        #expect(data.orders.first?.quantity == expected)
        #expect(data.orders.first.map { DecimalText.exact($0.amount) } == amount)
    }

    /// The diff's input comes from validation: one row per row whose cells matched the header, valid or
    /// rejected, with the id rule applied once; a malformed row is counted and carries nothing.
    @Test func everyReadableRowHasWhatTheDiffNeeds() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let table = SourceTable(
            name: "orders", headers: ValidatorFixtures.headers,
            rows: [ValidatorFixtures.row(id: "7"), ValidatorFixtures.row(id: "8", price: "x"), ValidatorFixtures.row(id: "8", person: "Ben")].enumerated().map {
                SourceTable.Row(number: $0.offset + 2, cells: $0.element)
            },
            malformed: [.init(number: 5, fieldCount: 3)])
        let validator = Validator(configuration: configuration)
        let sheet = try validator.validateSheet(orders: table, groups: nil)
        let data = sheet.data
        #expect(sheet.rows.map(\.row) == [2, 3, 4])
        #expect(sheet.rows.map(\.rejected) == [false, true, false])
        let identities = sheet.rows.map { $0.identity.text(id: $0.id, values: $0.validatedRow?.values ?? []) }
        #expect(identities[0] == "id:7")
        #expect(identities[1].hasPrefix("content:") && identities[2].hasPrefix("content:"))
        #expect(sheet.rows.map(\.identity.isID) == [true, false, false])
        #expect(sheet.rows.map(\.identity.key) == identities.map(IdentityKey.init))
        #expect(sheet.rows.map(\.validatedRow?.amount) == [35, nil, 35])
        #expect(data.malformedRows == 1)
        #expect(!sheet.columns.contains("editCode") && sheet.columns.contains("orderer"))
        let secrets = validator.secretCells(of: table)
        #expect(secrets.columns == ["editCode"])
        #expect(secrets.rows.count == sheet.rows.count)
        // A secret value prints as the mask, whichever way it is printed.
        let secret = try #require(secrets.rows.first?.first)
        var dumped = ""
        dump(secret, to: &dumped)
        for shown in [String(describing: secret), String(reflecting: secret), "\(secrets.rows)", dumped] {
            #expect(!shown.contains("s3cr3tC0de"), "\(shown)")
        }
    }
}
