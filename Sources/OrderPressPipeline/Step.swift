/// The named steps of a build, in the order they run: the progress display numbers them by this order
/// (`[5/9] diff`), and errors name the step that failed. Notify is not one of them: it runs after the
/// build has returned (`BuildCommand`, `NewsDelivery`), and what fails there is a warning, never a failed build.
public enum Step: String, Sendable, CaseIterable {
    case lock, configure, fetch, validate, diff, aggregate, render, publish, snapshot
}
