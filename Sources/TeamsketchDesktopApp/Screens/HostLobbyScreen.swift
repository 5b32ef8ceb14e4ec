import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// The host's lobby: the host's avatar and the session's sign (what the
/// joiners' cards show), the join code in big digits, who asks to join
/// (accept / decline, also after accepting), and Start once the activity's
/// start rule allows it. The activity's words come from `session.activityUI`.
@MainActor
final class HostLobbyScreen {
    let widget: Widget
    private weak var nav: (any Navigator)?
    private let lan: LanEnvironment
    private let session: any LobbySession
    private let codeLabel: Widget
    private let addressLabel: Widget
    private let members: Widget
    private let startButton: Widget
    /// In place of Start while the host is alone where the activity may be
    /// played alone: one child's picture, "Play alone".
    private let aloneButton: Widget
    private let status: Widget
    /// The host's avatar and the session's sign, filled in once the session
    /// has its id (`hosting()`).
    private let signRow: Widget
    /// Clears a flood of strangers' hellos in one click; shown while two or more wait.
    private let declineAllButton: Widget
    /// Whether the session is offered through the school server too, and
    /// for a teacher with several classes, the class to offer it to.
    private let relayRow: Widget

    init(nav: any Navigator, lan: LanEnvironment, session: any LobbySession) {
        self.nav = nav
        self.lan = lan
        self.session = session
        codeLabel = UI.label("…", classes: ["join-code"])
        addressLabel = UI.label("", classes: ["hint"])
        relayRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_widget_set_halign(relayRow, GTK_ALIGN_CENTER)
        members = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 10)
        signRow = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 4)
        gtk_widget_set_valign(signRow, GTK_ALIGN_CENTER)
        status = UI.label(`_`("Opening the lobby…"), classes: ["form-label"])
        startButton = UI.button(`_`("Start"), icon: "media-playback-start-symbolic", classes: ["big-button", "suggested-action"]) {}
        aloneButton = UI.button(`_`("Play alone"), icon: "avatar-default-symbolic", classes: ["big-button", "suggested-action"]) {}
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        UI.center(widget)
        declineAllButton = UI.button(`_`("Send all away"), icon: "edit-clear-all-symbolic",
                                     classes: ["big-button", "destructive-action"]) { [weak session] in
            session?.room.declineAllWaiting()
        }
        gtk_widget_set_tooltip_text(declineAllButton, `_`("Send everyone waiting away"))
        gtk_widget_set_visible(declineAllButton, 0)

        let back = UI.button(`_`("Back"), icon: "go-previous-symbolic", classes: ["big-button"]) { [weak self] in
            guard let self else { return }
            Task { @MainActor in
                await self.session.finish()
                self.lan.discovery.withdraw()
                self.nav?.showHome()
            }
        }
        gtk_widget_set_visible(aloneButton, 0)
        Signal.connect(UI.raw(startButton), "clicked") { [weak self] in self?.startPressed() }
        Signal.connect(UI.raw(aloneButton), "clicked") { [weak self] in self?.startPressed() }
        gtk_widget_set_sensitive(startButton, 0)

        // The sign beside the code rather than above it, so a full lobby's
        // rows still fit on a small classroom screen.
        let code = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [
            UI.label(`_`("Others join with this code"), classes: ["form-label"]), codeLabel, addressLabel,
        ])
        gtk_widget_set_valign(code, GTK_ALIGN_CENTER)
        let top = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 48, [signRow, code])
        gtk_widget_set_halign(top, GTK_ALIGN_CENTER)
        UI.append(widget, top)
        UI.append(widget, relayRow)
        UI.append(widget, status)
        UI.append(widget, members)
        let help = PictureHelp.button(nav: nav, name: "lobby") { ScreenHelp.hostLobby }
        gtk_widget_set_valign(help, GTK_ALIGN_CENTER)
        let actions = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 32, [back, help, declineAllButton, startButton, aloneButton])
        gtk_widget_set_halign(actions, GTK_ALIGN_CENTER)
        UI.append(widget, actions)

        session.room.onLobby = { [weak self] lobby in self?.show(lobby) }
    }

    /// The host service is listening: show the code and announce the session.
    func hosting() {
        guard let port = session.room.hostPort, let lobby = session.room.lobby else { return }
        let code = lan.discovery.ownJoinCode(port: port)
        let hostName = lan.preferences.profile.name
        UI.setText(codeLabel, code.map { "\($0)" } ?? "—")
        let address = "\(lan.ownAddress()):\(port)"
        UI.setText(addressLabel, String(format: `_`("or type the address %@"), address))
        let sign = SessionSign(sessionID: lobby.sessionID)
        showSign(sign, host: hostName)
        // For people and scripts reading the log (the UI tests join by it).
        FileHandle.standardError.write(Data("hosting: code=\(code.map { "\($0)" } ?? "-") address=\(address) sign=\(sign) id=\(lobby.sessionID.lowercasedText)\n".utf8))
        // A signed-in pupil's class goes with it, for the teacher's class wall.
        lan.discovery.announce(SessionAnnouncement(sessionID: lobby.sessionID.lowercasedText, hostName: hostName,
                                                   activity: lobby.activity, port: port, classTag: lan.signIn()?.classTag))
        show(lobby)
        offerThroughSchool()
    }

    /// Devices of the class that cannot reach this one (another room, Wi-Fi
    /// that keeps laptops apart) join through the school server, when this
    /// device is signed in to one. A teacher with several classes picks
    /// the class first.
    private func offerThroughSchool() {
        guard let signIn = lan.signIn() else { return }
        Task { @MainActor [weak self, lan] in
            let plan = await lan.relayOfferPlan()
            guard let self else { return }
            switch plan {
            case .none: break
            case .offer(let classID): self.offer(as: signIn, classID: classID)
            case .chooseClass(let classes):
                UI.clear(self.relayRow)
                UI.append(self.relayRow, UI.label(`_`("Also through the school server for"), classes: ["hint"]))
                for c in classes {
                    UI.append(self.relayRow, UI.button(c.name, classes: ["choice"]) { [weak self] in
                        self?.offer(as: signIn, classID: c.id, className: c.name)
                    })
                }
            }
        }
    }

    private func offer(as signIn: SchoolSignIn, classID: SchoolClassID?, className: String? = nil) {
        showRelay(nil, className: className)
        session.room.offerThroughSchool(as: signIn, classID: classID) { [weak self] listing in
            self?.showRelay(listing, className: className)
        }
    }

    private func showRelay(_ state: RelayOfferStatus?, className: String?) {
        UI.clear(relayRow)
        let text: String
        switch state {
        case nil: text = `_`("Asking the school server…")
        case .listed?:
            text = className.map { String(format: `_`("Class %@ can also join through the school server."), $0) }
                ?? `_`("Your class can also join through the school server.")
        case .retrying?: text = `_`("The school server does not answer. Trying again…")
        case .refused?: text = `_`("The school server does not carry this session.")
        }
        UI.append(relayRow, UI.label(text, classes: ["hint"]))
    }

    func leaveForNextChild() async {
        await session.finish()
        lan.discovery.withdraw()
    }

    /// Big, at the top: what the joiners' cards show for this session, so
    /// the teacher can say "tap the card with these pictures".
    private func showSign(_ sign: SessionSign, host: String) {
        UI.clear(signRow)
        let face = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 16, [
            Avatar.make(name: host, png: session.room.avatar(of: 0), size: 96),
            SessionSignView.make(sign, height: 130),
        ])
        UI.append(signRow, face)
        UI.append(signRow, UI.label(SessionSignView.words(sign), classes: ["sign-caption"]))
    }

    private func show(_ lobby: Lobby) {
        UI.clear(members)
        let guests = lobby.members.filter { $0.index != 0 }
        if guests.isEmpty {
            UI.append(members, UI.label(`_`("Nobody has asked to join yet."), classes: ["hint"]))
        }
        for m in guests { UI.append(members, row(m)) }
        gtk_widget_set_visible(declineAllButton, guests.filter { $0.state == .pending }.count >= 2 ? 1 : 0)
        let players = lobby.connectedDrawers
        let ui = session.activityUI
        UI.setText(status, ui.lobbyStatus(players: players))
        gtk_widget_set_sensitive(startButton, ui.startRule.allowsStart(players: players) && !lobby.started ? 1 : 0)
        let alone = ui.startRule.decide(players: players) == .startAlone && !lobby.started
        gtk_widget_set_visible(aloneButton, alone ? 1 : 0)
        gtk_widget_set_visible(startButton, alone ? 0 : 1)
    }

    /// The activity's rule decides; a lone host is asked first where it may play alone.
    private func startPressed() {
        guard let lobby = session.room.lobby else { return }
        let ui = session.activityUI
        switch ui.startRule.decide(players: lobby.connectedDrawers) {
        case .start: session.room.start()
        case .startAlone: session.room.start()
        case .wait: break
        }
    }

    private func row(_ m: LobbyMember) -> Widget {
        let index = m.index
        return MemberRow.make(m, avatar: session.room.avatar(of: index),
                              accept: { [weak self] in self?.session.room.accept(index) },
                              decline: { [weak self] in self?.session.room.decline(index) })
    }
}
