import Crypto
import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressDiff
import OrderPressTestSupport

/// A record's digest and a secret's hash are what every state folder already holds: the faster ways
/// of making them give exactly what the plain ways gave, byte for byte.
@Suite struct RecordDigestTests {
    /// The encoding as it was first written: every field appended to an array, length-prefixed.
    static func referenceDigest(_ record: RowRecord) -> RecordDigest {
        var bytes: [UInt8] = []
        func length(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func add(_ text: String?) {
            guard let text else { return length(UInt32.max) }
            length(UInt32(text.utf8.count))
            bytes += text.utf8
        }
        func add(_ list: [String]) {
            length(UInt32(list.count))
            list.forEach(add)
        }
        add(record.identity)
        add(record.id)
        add(record.values)
        add(record.secrets.map(\.text))
        add(record.rejected ? "1" : "0")
        add(record.group)
        add(record.person)
        add(record.item)
        add(record.options)
        add(String(record.quantity))
        add(record.amount)
        add(record.currency)
        return Array(SHA256.hash(data: bytes)).withUnsafeBytes { RecordDigest(bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(16)))! }
    }

    static let texts = ["", "7", "Amy", "週五下午茶", "熟成紅茶 L", "a longer text than fifteen bytes", "é", "👩‍💻", "\u{0}", "x\u{1F}y"]

    static let records = Generator<RowRecord, Shrink.None<RowRecord>> { rng in
        func text() -> String { texts.randomElement(using: &rng)! }
        func list() -> [String] { (0..<Int.random(in: 0...5, using: &rng)).map { _ in text() } }
        return RowRecord(
            row: Int.random(in: 2...1000, using: &rng), id: Bool.random(using: &rng) ? text() : nil, identity: text(),
            values: list(), secrets: SecretHashTests.hashes(using: &rng), rejected: Bool.random(using: &rng), group: text(), person: text(), item: text(),
            options: list(), quantity: Int.random(in: -1_000_000...1_000_000_000, using: &rng),
            amount: Bool.random(using: &rng) ? text() : nil, currency: text(), firstSeen: text())
    }

    @Test func theDigestIsTheOneOfTheReferenceEncoding() async {
        await propertyCheck(count: 500, input: Self.records) { record in
            #expect(RecordDigest(record) == Self.referenceDigest(record))
        }
    }

    /// One scratch for a whole run of records, as the diff uses it: every digest is the reference one,
    /// also after records too big for the scratch made it grow (and smaller ones followed).
    @Test func aReusedScratchGivesTheDigestOfEachRecord() async {
        // About one record in four gets a value of 750 to 6,000 bytes (the scratch starts at 1,024).
        let runs = Self.records.array(of: 1...12).map { records in
            records.map { record in
                var record = record
                if record.row % 4 == 0 { record.values.append(String(repeating: "週五下午茶", count: 50 + record.row % 350)) }
                return record
            }
        }
        await propertyCheck(count: 200, input: runs) { records in
            var scratch = RecordDigest.Scratch()
            for record in records { #expect(scratch.digest(record) == Self.referenceDigest(record)) }
        }
    }

    /// Worked out apart from Swift (Python's hashlib over the same encoding): digests in state folders
    /// written before any of this code still match.
    @Test(arguments: [
        (
            RowRecord(
                row: 9, id: "7", identity: "id:7", values: ["7", "週五下午茶", "Amy", "熟成紅茶", "L", ""], secrets: ["ab12", ""],
                rejected: false, group: "週五下午茶", person: "Amy", item: "熟成紅茶", options: ["L", "半糖"], quantity: 2, amount: "70",
                currency: "TWD", firstSeen: "2026-11-21T09:00:00Z"),
            "8ff637f655555c85351393eb799e6076"
        ),
        (
            RowRecord(
                row: 2, id: nil, identity: "content:a=b", values: [], secrets: [], rejected: true, group: "", person: "", item: "",
                options: [], quantity: -3, amount: nil, currency: "", firstSeen: ""),
            "851766047d6e994020fd4b017bef08c4"
        ),
    ])
    func theDigestOfAKnownRecord(record: RowRecord, hex: String) {
        #expect(Hex.lowercase(RecordDigest(record).bytes) == hex)
    }

    @Test func aSecretHashIsTheSaltedHashOfTheValue() async {
        let salts = Generator<String, Shrink.None<String>> { rng in Hex.lowercase((0..<Int.random(in: 0...20, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }) }
        let values = Generator<String, Shrink.None<String>> { rng in
            (0..<Int.random(in: 1...4, using: &rng)).map { _ in Self.texts.randomElement(using: &rng)! }.joined()
        }
        await propertyCheck(count: 300, input: salts, values) { salt, value in
            let expected = value.isEmpty ? "" : Hex.lowercase(SHA256.hash(data: Data((salt + "\u{0}" + value).utf8)))
            #expect(SecretHasher(salt: salt).hash(SecretValue(value)).text == expected)
        }
        #expect(SecretHasher(salt: "salt").hash(SecretValue("s3cr3t 編碼")).text == "759d9cc8f8c3812cdfd76d8b76bea86043f4edeb88f4338b430da133ee903cf7")
        #expect(SecretHasher(salt: "salt").hash(SecretValue(SecretMask.text)) == .unknown)
    }
}
