/// The one place the version lives: `orderpress --version`, the man page and `summary.json` readers
/// all see this string.
public enum Version {
    public static let current = "0.9.0"
}
