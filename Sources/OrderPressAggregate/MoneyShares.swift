import Foundation
import OrderPressSupport

/// Splits a group's fee or discount into whole minor units, one part per person, so that the parts
/// sum exactly to the amount: the largest-remainder method (each person gets the
/// whole units of their exact quota, and the units left over go one each to the largest remainders),
/// ties going to the person first in name order — the order the parts are given in. Integers only:
/// quotas are compared as exact fractions, never rounded.
package enum MoneyShares {
    /// `amount` in units of 10^-`digits`, rounded half-up (`MoneyFormat.halfUp`) when it is finer: nobody
    /// pays a fraction of the currency's smallest unit. Nil for a negative amount or one beyond 64 bits.
    package static func units(_ amount: Decimal, digits: Int) -> UInt64? {
        guard amount >= 0, let scaled = DecimalText.Scaled(amount) else { return nil }
        return scaled.units(fractionDigits: digits)
    }

    /// `units` × 10^-`digits` as a Decimal, exact.
    package static func amount(units: UInt64, digits: Int) -> Decimal {
        Decimal(sign: .plus, exponent: -digits, significand: Decimal(units))
    }

    /// `units` split equally among `count` people: everyone's quota has the same remainder, so the
    /// units left over go to the first in name order.
    package static func equal(_ units: UInt64, among count: Int) -> [UInt64] {
        guard count > 0 else { return [] }
        let (each, left) = units.quotientAndRemainder(dividingBy: UInt64(count))
        return (0..<count).map { each + ($0 < Int(left) ? 1 : 0) }
    }

    /// `units` split in proportion to `weights` (each person's subtotal, in any one unit): person i's
    /// quota is units × weight_i ÷ Σ weights. With no weight at all (every subtotal zero) there is no
    /// proportion to keep, and the split is equal.
    package static func proportional(_ units: UInt64, to weights: [UInt64]) -> [UInt64] {
        let total = weights.reduce(UInt128(0)) { $0 + UInt128($1) }
        guard total > 0 else { return equal(units, among: weights.count) }
        // units < 2^64 and weight < 2^64: the product fits 128 bits.
        var parts: [UInt64] = []
        var remainders: [UInt128] = []
        parts.reserveCapacity(weights.count)
        remainders.reserveCapacity(weights.count)
        var given: UInt64 = 0
        for weight in weights {
            let (quotient, remainder) = (UInt128(units) * UInt128(weight)).quotientAndRemainder(dividingBy: total)
            parts.append(UInt64(quotient))
            remainders.append(remainder)
            given += UInt64(quotient)
        }
        // Fewer units are left than there are people (each quota lost less than one).
        let left = Int(units - given)
        guard left > 0 else { return parts }
        let order = weights.indices.sorted { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }
        for index in order.prefix(left) { parts[index] += 1 }
        return parts
    }

    /// The weights `proportional` compares, from exact subtotals: in millionths when every one is a whole
    /// number of them that fits (always, for a sheet's valid orders below ten trillion per person), else
    /// in whole units rounded half-up, which keeps the proportions to within one unit of a subtotal that
    /// large.
    package static func weights(_ subtotals: [Decimal]) -> [UInt64] {
        let micros = subtotals.map { ExactSum.micros(of: $0).flatMap { UInt64(exactly: $0) } }
        if micros.allSatisfy({ $0 != nil }) { return micros.map { $0! } }
        return subtotals.map { units($0, digits: 0) ?? (($0 > 0) ? UInt64.max / UInt64(max(subtotals.count, 1)) : 0) }
    }
}
