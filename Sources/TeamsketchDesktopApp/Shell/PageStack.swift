import CGtk
import Foundation

/// The window's pages: one GtkStack child per `AppPage`, without a
/// transition (it delays the first touch on the new page and moves keyboard
/// focus after the page is shown), and the Swift object of each page, kept
/// as long as its page is in the stack (GTK holds the widgets).
@MainActor
final class PageStack {
    let widget: Widget
    private var screens: [AppPage: AnyObject] = [:]
    /// Pages shown so far: a page prepared away from the main thread is
    /// shown only if nothing else was in the meantime.
    private(set) var shown = 0

    init(home: Widget) {
        widget = gtk_stack_new()!
        gtk_stack_set_transition_type(ts_stack(widget), GTK_STACK_TRANSITION_TYPE_NONE)
        gtk_stack_add_named(ts_stack(widget), home, AppPage.home.rawValue)
    }

    /// The screen object shown on `page`, if that page is open.
    subscript(page: AppPage) -> AnyObject? { screens[page] }

    var visible: AppPage? {
        gtk_stack_get_visible_child_name(ts_stack(widget)).flatMap { AppPage(rawValue: String(cString: $0)) }
    }

    func show(_ page: AppPage) {
        shown += 1
        gtk_stack_set_visible_child_name(ts_stack(widget), page.rawValue)
        Self.log(page)
    }

    /// A new screen on `page`, shown; the one there before goes.
    func replace(_ page: AppPage, with widget: Widget, owner: AnyObject) {
        screens[page] = owner
        if let old = gtk_stack_get_child_by_name(ts_stack(self.widget), page.rawValue) {
            gtk_stack_remove(ts_stack(self.widget), old)
        }
        gtk_stack_add_named(ts_stack(self.widget), widget, page.rawValue)
        show(page)
    }

    /// Drops a page and its screen, so nothing of it stays in memory.
    func remove(_ page: AppPage) {
        screens[page] = nil
        if let old = gtk_stack_get_child_by_name(ts_stack(widget), page.rawValue) {
            gtk_stack_remove(ts_stack(widget), old)
        }
    }

    /// Forgets a page's screen object (its widget stays until replaced).
    func forget(_ page: AppPage) { screens[page] = nil }

    /// For people and scripts reading the log: the UI tests wait for the
    /// screen a click opens before typing into it, rather than guessing how
    /// long a busy laptop takes.
    static func log(_ page: AppPage) {
        FileHandle.standardError.write(Data("page: \(page.rawValue)\n".utf8))
    }
}
