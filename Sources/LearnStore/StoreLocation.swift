import Foundation
import LearnModel

/// Where the store lives by default: the XDG base directory specification's
/// data directory, so backups and roaming profiles find it where Linux
/// desktops expect user data.
public enum StoreLocation {
    public static let directoryName = "teamsketch"
    public static let fileName = "teamsketch.sqlite"

    /// `$XDG_DATA_HOME/teamsketch/teamsketch.sqlite`, else
    /// `~/.local/share/teamsketch/teamsketch.sqlite`. The spec says a relative
    /// `XDG_DATA_HOME` is invalid and must be ignored, as must an empty one.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            dataHome = (home as NSString).appendingPathComponent(".local/share")
        }
        return ((dataHome as NSString).appendingPathComponent(directoryName) as NSString)
            .appendingPathComponent(fileName)
    }
}
