import CGtk
import Foundation
import TeamsketchCore

/// Where this process finds its resources, decided once.
enum AppResources {
    static let locator = ResourceLocator.forCurrentProcess()
}

/// Tells the person in front of the screen that a resource is missing or
/// damaged: the details go to stderr, a plain message to a window. The app
/// carries on without the resource, so nothing here is fatal.
@MainActor
enum ResourceNotice {
    /// Logs each problem and shows one message. The message waits for the
    /// main loop so it can sit on top of the app's window rather than appear
    /// before it.
    static func report(_ problems: [ResourceProblem], title: String, message: String) {
        guard !problems.isEmpty else { return }
        for problem in problems {
            FileHandle.standardError.write(Data((problem.logLine + "\n").utf8))
        }
        DispatchQueue.main.async {
            Alert.show(parent: visibleWindow(), title: title, message: message)
        }
    }

    /// The advice every resource message ends with: the fix is the same.
    static var reinstallAdvice: String {
        `_`("Please ask your teacher to reinstall Teamsketch.")
    }

    /// The resources' names for a message, e.g. "sounds/snap.wav, sounds/word.wav".
    static func names(_ problems: [ResourceProblem]) -> String {
        problems.map(\.resource).joined(separator: ", ")
    }

    /// The app's main window, so the message is modal on top of it: the
    /// application's window list starts with the one most recently used.
    private static func visibleWindow() -> Widget? {
        guard let app = g_application_get_default(),
              let list = gtk_application_get_windows(ts_application(UnsafeMutableRawPointer(app))) else { return nil }
        var node: UnsafeMutablePointer<GList>? = list
        while let n = node {
            if let data = n.pointee.data {
                let widget = data.assumingMemoryBound(to: GtkWidget.self)
                if gtk_widget_get_visible(widget) != 0 { return widget }
            }
            node = n.pointee.next
        }
        return nil
    }
}
