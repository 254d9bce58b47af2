import Foundation

/// Four exact amounts (`Decimal?`) in 40 bytes instead of 84: each as its millionths where
/// `ExactSum.decimal(micros:)` gives back its very bytes — every total and share the aggregation makes
/// from exact sums — and any other in a box the four share, made only for such a one. A million
/// (group, person) pairs at a million Form rows hold two sets of them (`PersonTotal`,
/// `PersonSummary.GroupShare`).
struct PackedDecimals: Sendable, Equatable {
    /// By slot: the millionths, or `boxed` (the value is in `box`), or `absent` (nil).
    private var micros: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
    private var box: Box?

    private static let boxed = Int64.min
    private static let absent = Int64.min + 1
    /// What a slot of no millionths reads as.
    private static let zero = ExactSum.decimal(micros: 0)

    /// The values the millionths cannot hold, by slot; immutable, so a copy of the pack shares it safely.
    private final class Box: Sendable {
        let values: [Decimal?]
        init(_ values: [Decimal?]) { self.values = values }
    }

    init() {}

    subscript(slot: Int) -> Decimal? {
        get {
            let stored = Self.read(micros, slot)
            switch stored {
            case Self.boxed: return box!.values[slot]
            case Self.absent: return nil
            default: return ExactSum.decimal(micros: stored)
            }
        }
        set {
            var stored = Self.absent
            if let newValue {
                // Most fee and discount shares are zero: stored as such without converting them.
                if ExactSum.sameBytes(newValue, Self.zero) {
                    stored = 0
                } else if let exact = ExactSum.micros(of: newValue), exact != Self.boxed, exact != Self.absent,
                    ExactSum.sameBytes(ExactSum.decimal(micros: exact), newValue)
                {
                    stored = exact
                } else {
                    stored = Self.boxed
                }
            }
            if stored == Self.boxed || Self.read(micros, slot) == Self.boxed {
                var values = box?.values ?? [nil, nil, nil, nil]
                values[slot] = stored == Self.boxed ? newValue : nil
                box = values.allSatisfy { $0 == nil } ? nil : Box(values)
            }
            Self.write(&micros, slot, stored)
        }
    }

    /// `self[slot] = sum.value`, without making the `Decimal` when nothing spilled: the millionths are
    /// what the getter turns back into the very bytes of `sum.value` (`ExactSum.decimal(micros:)`).
    mutating func set(_ slot: Int, to sum: ExactSum) {
        guard let exact = sum.exactMicros, exact != Self.boxed, exact != Self.absent, Self.read(micros, slot) != Self.boxed else {
            self[slot] = sum.value
            return
        }
        Self.write(&micros, slot, exact)
    }

    private static func read(_ micros: (Int64, Int64, Int64, Int64), _ slot: Int) -> Int64 {
        switch slot {
        case 0: micros.0
        case 1: micros.1
        case 2: micros.2
        default: micros.3
        }
    }

    private static func write(_ micros: inout (Int64, Int64, Int64, Int64), _ slot: Int, _ value: Int64) {
        switch slot {
        case 0: micros.0 = value
        case 1: micros.1 = value
        case 2: micros.2 = value
        default: micros.3 = value
        }
    }

    /// Equal when every slot holds an equal value (as `Decimal` compares them).
    static func == (left: PackedDecimals, right: PackedDecimals) -> Bool {
        (0..<4).allSatisfy { left[$0] == right[$0] }
    }
}
