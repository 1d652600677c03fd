/// The version `comics --version` prints and the `User-Agent` carries.
public enum ComicsVersion {
    public static let current = "0.1.0"
}
