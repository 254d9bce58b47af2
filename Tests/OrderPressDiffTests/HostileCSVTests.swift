import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressDiff
import OrderPressTestSupport

/// Generated CSV sheets with hostile cells and damaged rows, read and validated in-process: the file is
/// either refused as a whole (a source error) or every row is an order or a rejected row, and no secret
/// cell ever reaches an order, a rejected row's values or any message.
@Suite struct HostileCSVTests {
    static let headers = ["id", "group", "orderer", "drink", "quantity", "price", "note", "editCode"]
    static let cells = [
        "Amy", "A\u{200B}my", "週五下午茶", "35", "1,200", "-5", "9223372036854775807", "1e5", "", " ", "\"", "a,b", "line\nbreak",
        "\r", "\u{202E}gnp.exe", "\u{1B}]0;x\u{7}", "=HYPERLINK(\"x\")", "\u{FEFF}", "🏴\u{E0067}\u{E0062}\u{E007F}", "١٢",
    ]

    /// How a row is damaged: not at all, one stray comma, one field missing, or a stray quote.
    enum Damage: Int, CaseIterable { case none, extraField, missingField, strayQuote }

    static func field(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    @Test func everyRowIsAccountedForAndNoSecretLeaks() async throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML + "\n[orders.columns]\nperson = \"orderer\"")
        let row = Gen.int(in: 0...(Self.cells.count - 1)).array(of: 7)
        let rows = zip(row, Gen.int(in: 0...(Damage.allCases.count - 1)), Gen.int(in: 0...7)).array(of: 0...12)
        await propertyCheck(count: 300, input: rows, Gen.int(in: 0...2)) { rows, lineEnd in
            let newline = ["\n", "\r\n", "\r"][lineEnd]
            var lines = [Self.headers.joined(separator: ",")]
            for (index, (picks, damage, position)) in rows.enumerated() {
                var fields = picks.map { Self.field(Self.cells[$0]) } + ["\"SECRET\(index)x\""]
                switch Damage(rawValue: damage)! {
                case .none: break
                case .extraField: fields.insert("", at: position)
                case .missingField: fields.remove(at: position)
                case .strayQuote: fields[position] += "\"x"
                }
                lines.append(fields.joined(separator: ","))
            }
            let data = Data((lines.joined(separator: newline) + newline).utf8)
            let table: SourceTable
            do {
                table = try SheetParser.parse(data, format: .csv, source: "orders")
            } catch let error as SourceError {
                #expect(error.exitStatus == .unavailable)
                #expect(!error.description.contains("SECRET"))
                return
            } catch {
                Issue.record("unexpected \(error)")
                return
            }
            do {
                let sheet = try Validator(configuration: configuration).validateSheet(orders: table, groups: nil)
                let validated = sheet.data
                #expect(validated.rowsRead == validated.orders.count + validated.rejected.count)
                #expect(validated.rowsRead == rows.count)
                let shown = validated.rejected.flatMap { $0.values.map(\.value) + $0.reasons }
                    + validated.orders.flatMap { [$0.group, $0.person, $0.item, $0.note, $0.id ?? ""] }
                    + validated.warnings.map(\.message)
                #expect(!shown.contains { $0.contains("SECRET") })
                let differ = Differ(hasher: SecretHasher(salt: "s"), now: "2026-11-21T10:00:00Z")
                let snapshot = try differ.compare(sheet, previous: nil).snapshot
                #expect(!String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self).contains("SECRET"))
            } catch let error as DataError {
                #expect(!error.description.contains("SECRET"))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }
}
