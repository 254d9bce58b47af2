/// What every page, message and cached copy shows instead of a secret value (an edit code).
public enum SecretMask {
    public static let text = "•••"
}
