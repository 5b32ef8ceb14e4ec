import Foundation

/// The app's style sheet among the resources. GTK draws its plain look
/// without it, so a missing or unreadable one is reported, never fatal.
public enum StyleSheetFile {
    public static let resourcePath = "style/teamsketch.css"

    /// The path of a readable, non-empty UTF-8 style sheet.
    public static func locate(_ locator: ResourceLocator) -> Result<String, ResourceProblem> {
        do {
            let file = try locator.contents(of: resourcePath)
            guard let text = String(data: file.data, encoding: .utf8) else {
                return .failure(.damaged(resource: resourcePath, path: file.path, reason: "not UTF-8 text"))
            }
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                return .failure(.damaged(resource: resourcePath, path: file.path, reason: "empty"))
            }
            return .success(file.path)
        } catch {
            return .failure(error)
        }
    }
}
