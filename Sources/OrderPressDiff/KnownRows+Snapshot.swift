import OrderPressSupport
import OrderPressValidate

extension KnownRows {
    /// What the last snapshot (`index`) knew of its rows, for validation; nil when its records' context is
    /// unknown or their secrets were hashed with a salt rather than with `key`: no record is kept then.
    package init?(_ index: SnapshotIndex, key: [UInt8]) {
        guard let context = index.header.context, index.header.salt == SecretHasher.keyedMarker else { return nil }
        let records = index.records
        self.init(
            context: context, key: key,
            validRows: records.indices.map { records[$0].rejected ? Self.none : records[$0].fingerprint ?? Self.none },
            identities: records.indices.map { records[$0].identity }, byID: records.indices.map { records[$0].byID })
    }
}
