import OrderPressSupport
import OrderPressValidate

extension KnownRows {
    /// What the last snapshot (`index`) knew of its rows, for validation; nil when its records' context is
    /// unknown or their secrets were hashed with a salt rather than with `key`: no record is kept then.
    package init?(_ index: SnapshotIndex, key: [UInt8]) {
        guard let context = index.header.context, index.header.salt == SecretHasher.keyedMarker else { return nil }
        let records = index.records
        var valid: [Digest128: Int32] = [:]
        valid.reserveCapacity(records.count)
        for position in records.indices where !records[position].rejected {
            guard let fingerprint = records[position].fingerprint, valid[fingerprint] == nil else { continue }
            valid[fingerprint] = Int32(position)
        }
        self.init(context: context, key: key, validRows: valid)
    }
}
