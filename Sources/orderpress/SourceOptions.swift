import ArgumentParser

/// The source options `build`, `check` and `diff` share, so that the three read the sheet alike.
struct SourceOptions: ParsableArguments {
    @Flag(help: "Send no request: read URL sources from their cached copies (exit 69 when one has none).")
    var offline = false
}
