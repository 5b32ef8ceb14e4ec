/// The app's icons, laid out as an icon theme (`icons/hicolor/…`) so GTK
/// can be pointed at the directory holding them when they are not installed
/// where the system's icon themes are.
public enum AppIconFiles {
    public static let applicationID = "org.teamsketch.Desktop"
    public static let scalable = "icons/hicolor/scalable/apps/\(applicationID).svg"
    public static let symbolic = "icons/hicolor/symbolic/apps/\(applicationID)-symbolic.svg"

    /// The `icons` directory holding the scalable icon, if any.
    public static func themeDirectory(_ locator: ResourceLocator) -> String? {
        guard let path = locator.path(for: scalable) else { return nil }
        return String(path.dropLast(scalable.count)) + "icons"
    }
}
