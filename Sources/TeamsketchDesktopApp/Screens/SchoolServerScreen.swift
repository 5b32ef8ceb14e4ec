import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Choosing the school server and signing in, reached from the home
/// screen. Signed in, it says who and how sync is going, and signs out.
/// What a sign-in means and when sync runs is decided in `SchoolLink`.
@MainActor
final class SchoolServerScreen {
    /// What this screen asks of the app's school link (`SchoolLink.serverScreenLink`).
    struct Link {
        var signIn: @MainActor () -> SchoolSignIn?
        var status: @MainActor () -> SyncStatus
        /// The server last signed in to, offered again.
        var lastServer: @MainActor () -> String?
        /// Tries `addresses` in turn; `done` gets a message for the teacher, or nil.
        var signInAt: @MainActor (_ addresses: [URL], _ name: String, _ password: String,
                       _ done: @escaping @MainActor (String?) -> Void) -> Void
        var signOut: @MainActor () -> Void
        var syncNow: @MainActor () -> Void
        /// The signed-in teacher's classes, nil when the server does not answer.
        var classes: @MainActor () async -> [SchoolOffice.SchoolClass]?
        /// Setting up: this laptop for `class` (`ClassSetUp.belong`).
        var belong: @MainActor (_ class: SchoolOffice.SchoolClass, _ signIn: SchoolSignIn) async -> ClassSetUp.Outcome
        /// Setting up was left: true when the first start's question must
        /// be asked again (`ClassSetUp.leave`).
        var leaveSetUp: @MainActor () -> Bool
    }

    let widget: Widget
    private let addressEntry: Widget
    private let nameEntry: Widget
    private let passwordEntry: Widget
    private let message: Widget
    private let statusLabel: Widget
    /// Servers announcing themselves on the LAN, one tap each.
    private let found: Widget
    private let browser = SchoolServerBrowser()
    private weak var nav: (any Navigator)?
    private let link: Link
    /// Setting up a laptop for a class: signed in, the teacher picks it.
    private let settingUpClass: Bool

    init(nav: any Navigator, link: Link, settingUpClass: Bool = false) {
        self.nav = nav
        self.link = link
        self.settingUpClass = settingUpClass
        addressEntry = gtk_entry_new()!
        nameEntry = gtk_entry_new()!
        passwordEntry = gtk_password_entry_new()!
        message = UI.label("", classes: ["form-message"])
        statusLabel = UI.label("", classes: ["form-label"])
        found = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_widget_set_halign(found, GTK_ALIGN_CENTER)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        UI.center(widget)
        // The page is rebuilt on signing in and out; these outlive it.
        for kept in [addressEntry, nameEntry, passwordEntry, message, statusLabel, found] {
            g_object_ref_sink(gpointer(kept))
        }
        browser.onChange = { [weak self] in self?.showFound() }
        build()
    }

    isolated deinit {
        browser.stop()
        for kept in [addressEntry, nameEntry, passwordEntry, message, statusLabel, found] {
            g_object_unref(gpointer(kept))
        }
    }

    /// Where typing starts: the address when signed out.
    func focus() {
        if link.signIn() == nil { gtk_widget_grab_focus(addressEntry) }
    }

    private func showFound() {
        UI.clear(found)
        for server in browser.servers.prefix(4) {
            let address = "\(server.tls ? "https" : "http")://\(server.host):\(server.port)"
            UI.append(found, UI.button(server.name, icon: "network-server-symbolic", classes: ["choice"]) { [weak self] in
                guard let self else { return }
                gtk_editable_set_text(ts_editable(self.addressEntry), address)
                gtk_widget_grab_focus(self.nameEntry)
            })
        }
    }

    private func build() {
        UI.clear(widget)
        UI.append(widget, UI.label(`_`("School server"), classes: ["home-title"]))
        let settingUp = settingUpClass
        let back = UI.button(`_`("Back"), icon: "go-previous-symbolic", classes: ["big-button"]) { [weak nav, link] in
            if settingUp, link.leaveSetUp() { nav?.showFirstRun() } else { nav?.showHome() }
        }
        if settingUpClass, let signIn = link.signIn(), signIn.isTeacher {
            return chooseClass(signIn, back: back)
        }
        if let signIn = link.signIn() {
            UI.append(widget, UI.label(String(format: `_`("Signed in as %@"), signIn.name), classes: ["form-label"]))
            UI.append(widget, UI.label(signIn.server, classes: ["form-label"]))
            UI.append(widget, statusLabel)
            showStatus(link.status())
            let signOut = UI.button(`_`("Sign out"), icon: "system-log-out-symbolic", classes: ["big-button"]) {
                [weak self, link] in
                link.signOut()
                self?.build()
            }
            let syncNow = UI.button(`_`("Sync now"), icon: "emblem-synchronizing-symbolic", classes: ["big-button"]) {
                [link] in link.syncNow()
            }
            UI.append(widget, Self.row([back, syncNow, signOut]))
            gtk_widget_grab_focus(back)
            browser.stop()
            return
        }
        UI.append(widget, found)
        browser.start()
        for (entry, label) in [(addressEntry, `_`("Server address")), (nameEntry, `_`("Your name")),
                               (passwordEntry, `_`("Password"))] {
            UI.style(entry, ["form-entry", "wide"])
            UI.accessibleLabel(entry, label)
        }
        if UI.entryText(addressEntry).isEmpty, let last = link.lastServer() {
            gtk_editable_set_text(ts_editable(addressEntry), last)
        }
        let form = gtk_grid_new()!
        gtk_grid_set_row_spacing(ts_grid(form), 18)
        gtk_grid_set_column_spacing(ts_grid(form), 18)
        for (i, (title, control)) in [(`_`("Server"), addressEntry), (`_`("Name"), nameEntry),
                                      (`_`("Password"), passwordEntry)].enumerated() {
            let l = UI.label(title, classes: ["form-label"])
            gtk_widget_set_halign(l, GTK_ALIGN_END)
            gtk_grid_attach(ts_grid(form), l, 0, Int32(i), 1, 1)
            gtk_grid_attach(ts_grid(form), control, 1, Int32(i), 1, 1)
        }
        UI.append(widget, form)
        UI.append(widget, message)
        let signIn = UI.button(`_`("Sign in"), icon: "system-users-symbolic", classes: ["big-button", "suggested-action"]) {
            [weak self] in self?.signIn()
        }
        Signal.connect(UI.raw(passwordEntry), "activate") { [weak self] in self?.signIn() }
        UI.append(widget, Self.row([back, signIn]))
    }

    /// "Which class uses this laptop?": the teacher's classes as big
    /// buttons; the chosen one is the link's to set up (`Link.belong`).
    private func chooseClass(_ signIn: SchoolSignIn, back: Widget) {
        browser.stop()
        UI.append(widget, UI.label(`_`("Which class uses this laptop?"), classes: ["form-label"]))
        let choices = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_widget_set_halign(choices, GTK_ALIGN_CENTER)
        UI.append(widget, choices)
        UI.append(widget, message)
        UI.append(widget, Self.row([back]))
        UI.setText(message, `_`("Looking for your classes…"))
        Task { @MainActor [weak self, link] in
            let classes = await link.classes()?.filter { !$0.archived }
            guard let self else { return }
            guard let classes, !classes.isEmpty else {
                UI.setText(self.message, classes == nil ? `_`("The school server does not answer. Please try again.")
                                                        : `_`("You have no classes yet. Make one in the teacher's window."))
                return
            }
            UI.setText(self.message, "")
            FileHandle.standardError.write(Data("set up: classes offered: \(classes.count)\n".utf8))
            for schoolClass in classes {
                UI.append(choices, UI.button(schoolClass.name, icon: "system-users-symbolic", classes: ["choice", "suggested-action"]) {
                    [weak self] in
                    // One set-up at a time: a second tap waits for the first.
                    gtk_widget_set_sensitive(choices, 0)
                    self?.belong(to: schoolClass, signIn: signIn) {
                        gtk_widget_set_sensitive(choices, 1)
                    }
                })
            }
        }
    }

    /// `failed`: the laptop is not set up (the server did not take the
    /// class's code, or the set-up could not be saved); the teacher stays
    /// signed in to try again.
    private func belong(to schoolClass: SchoolOffice.SchoolClass, signIn: SchoolSignIn,
                        failed: @escaping @MainActor () -> Void) {
        UI.setText(message, `_`("One moment…"))
        Task { @MainActor [weak self, weak nav, link] in
            switch await link.belong(schoolClass, signIn) {
            case .done:
                nav?.showHome()
            case .refused:
                if let self { UI.setText(self.message, `_`("The school server did not take this laptop for the class. Please try again.")) }
                failed()
            case .notSaved(let error):
                if let self { UI.setText(self.message, String(describing: error)) }
                failed()
            }
        }
    }

    private static func row(_ buttons: [Widget]) -> Widget {
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 32, buttons)
        gtk_widget_set_halign(row, GTK_ALIGN_CENTER)
        return row
    }

    private func signIn() {
        let addresses = SchoolAddress.candidates(UI.entryText(addressEntry))
        guard !addresses.isEmpty else {
            UI.setText(message, `_`("Please type the server's address, for example schule.local"))
            return
        }
        UI.setText(message, `_`("Signing in…"))
        let name = UI.entryText(nameEntry), password = UI.entryText(passwordEntry)
        link.signInAt(addresses, name, password) { [weak self] failure in
            guard let self else { return }
            if let failure {
                UI.setText(self.message, failure)
            } else {
                gtk_editable_set_text(ts_editable(self.passwordEntry), "")
                // "Signing in…" is over; the form shown after signing out
                // must not still say it.
                UI.setText(self.message, "")
                self.build()
            }
        }
    }

    func showStatus(_ status: SyncStatus) {
        UI.setText(statusLabel, SyncStatusText.text(status))
    }
}

/// The quiet line that says how sync is going.
@MainActor
enum SyncStatusText {
    static func text(_ status: SyncStatus) -> String {
        switch status {
        case .off: ""
        case .synced: `_`("Everything is on the school server")
        case .waiting(let count): String(format: _n("%d change waiting for the school server", "%d changes waiting for the school server", count), count)
        case .unreachable(let since, _):
            String(format: `_`("School server not reachable since %@"), FormatLocale.dateFormatter(date: .none, time: .short).string(from: since))
        case .held(let quota, let waiting) where quota.isDaily:
            String(format: _n("Enough sent for today: %d change waits on this computer until tomorrow",
                              "Enough sent for today: %d changes wait on this computer until tomorrow", waiting), waiting)
        case .held(_, let waiting):
            String(format: _n("The school server is full for you: %d change waits on this computer. Ask your teacher.",
                              "The school server is full for you: %d changes wait on this computer. Ask your teacher.", waiting), waiting)
        case .serverFull(let waiting):
            String(format: _n("The school server’s disk is full: %d change waits on this computer",
                              "The school server’s disk is full: %d changes wait on this computer", waiting), waiting)
        case .signedOut: `_`("Please sign in to the school server again")
        }
    }
}
