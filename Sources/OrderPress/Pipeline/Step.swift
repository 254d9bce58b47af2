/// The named steps of a build, in order.
public enum Step: String, Sendable, CaseIterable {
    case lock, configure, fetch, validate, aggregate, diff, render, publish, snapshot
}
