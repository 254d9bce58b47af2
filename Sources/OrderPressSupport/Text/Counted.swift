/// A number and its noun in English, as the terminal and the logs say it ("1 row", "3 rows"): the
/// site's pages count in their own language through `Labels`.
public enum Counted {
    /// `count` and the noun, singular for one; `plural` when the noun does not take an "s".
    public static func text(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
