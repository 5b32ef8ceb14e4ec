import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Nearby sessions of one activity (found by any mechanism) as big buttons,
/// a field for a code or address, and — while waiting — what the activity
/// says about the session and who else is in. The activity's words and its
/// controller come from `activity`.
@MainActor
final class JoinScreen {
    let widget: Widget
    private weak var nav: (any Navigator)?
    private let lan: LanEnvironment
    private let nameEntry: Widget
    private let codeEntry: Widget
    private let observer: Widget
    private let nearby: Widget
    private let diagnostics: Widget
    private let status: Widget
    /// While waiting: the host's avatar and the session's sign, so a pupil
    /// who typed a code sees the same pictures as on the host's screen.
    private let joinedSign: Widget
    private var session: (any LobbySession)?
    /// What is for choosing a session (the nearby ones, the code, "only
    /// watch"): hidden while one is being joined, so the screen waiting for
    /// the host stays within a small laptop's height.
    private var choosing: [Widget] = []
    private let activity: any ActivityLobbyUI
    /// Nearby hosts' pictures, asked for once per card (`LanEnvironment.hostPicture`, a
    /// peek that never joins), by card and address; only pictures that
    /// pass `AvatarPNG`'s checks are kept.
    private var hostPictures: [String: [UInt8]] = [:]
    private var askedForPicture: Set<String> = []
    /// What the school server relays for this device's sign-in, asked for
    /// every few seconds while the screen is up.
    private var relayed: [RelayedSession] = []
    static let relayPollInterval: Duration = .seconds(3)

    init(nav: any Navigator, lan: LanEnvironment, activity: any ActivityLobbyUI) {
        self.nav = nav
        self.lan = lan
        self.activity = activity
        nameEntry = gtk_entry_new()!
        gtk_editable_set_text(ts_editable(nameEntry), lan.preferences.profile.name)
        UI.style(nameEntry, ["form-entry"])
        UI.accessibleLabel(nameEntry, `_`("Your name"))
        // A pupil signed in joins under their account's name.
        if let signIn = lan.signIn(), !signIn.isTeacher { gtk_widget_set_sensitive(nameEntry, 0) }
        codeEntry = gtk_entry_new()!
        UI.style(codeEntry, ["form-entry"])
        gtk_entry_set_placeholder_text(ts_entry(codeEntry), `_`("Code, e.g. 000142"))
        UI.accessibleLabel(codeEntry, activity.codeFieldName)
        // A big toggle with an eye rather than a check box: its box would
        // be smaller than a child's fingertip.
        observer = UI.toggleButton(`_`("Only watch (teacher, projector)"), icon: "view-reveal-symbolic", classes: ["choice"])
        gtk_widget_set_halign(observer, GTK_ALIGN_CENTER)
        nearby = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_widget_set_halign(nearby, GTK_ALIGN_CENTER)
        diagnostics = UI.label("", classes: ["hint"])
        gtk_label_set_xalign(ts_label(diagnostics), 0)
        status = UI.label("", classes: ["form-label"])
        joinedSign = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 10)
        gtk_widget_set_valign(joinedSign, GTK_ALIGN_CENTER)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 14)
        UI.center(widget)

        let nameRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [UI.label(`_`("Your name"), classes: ["form-label"]), nameEntry])
        let codeButton = UI.button(`_`("Join"), classes: ["choice", "suggested-action"]) { [weak self] in self?.joinByCode() }
        Signal.connect(UI.raw(codeEntry), "activate") { [weak self] in self?.joinByCode() }
        let codeRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [codeEntry, codeButton])
        // Smaller than the lobby's big buttons: a laptop's 768 rows (and a
        // projector's 720) hold the sessions, the code and this.
        let back = UI.button(`_`("Back"), icon: "go-previous-symbolic", classes: ["choice"]) { [weak self] in
            guard let self else { return }
            Task { @MainActor in
                await self.session?.finish()
                self.lan.discovery.stop()
                self.nav?.showHome()
            }
        }
        // How the search goes, in a bubble rather than unfolded below:
        // the screen keeps its height on a small laptop.
        let why = UI.popoverButton(`_`("Nothing here? How we search"), icon: "dialog-question-symbolic",
                                   classes: ["choice"], content: diagnostics)

        UI.append(widget, UI.label(activity.joinTitle, classes: ["home-title"]))
        UI.append(widget, nameRow)
        let nearbyTitle = UI.label(`_`("Nearby"), classes: ["form-label"])
        choosing = [nearbyTitle, nearby, codeRow, observer]
        for w in choosing { UI.append(widget, w) }
        // Side by side, so waiting adds no height: the Back button stays on screen.
        let waitingRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18, [joinedSign, status])
        gtk_widget_set_halign(waitingRow, GTK_ALIGN_CENTER)
        UI.append(widget, waitingRow)
        let help = PictureHelp.button(nav: nav, name: "join") { ScreenHelp.join }
        gtk_widget_set_valign(help, GTK_ALIGN_CENTER)
        let bottom = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 32, [back, help, why])
        gtk_widget_set_valign(why, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(bottom, GTK_ALIGN_CENTER)
        UI.append(widget, bottom)

        lan.discovery.onChange = { [weak self] in self?.refresh() }
        lan.discovery.start()
        refresh()
        pollRelay()
    }

    /// Asks the school server for relayed sessions until the screen goes.
    /// Without a sign-in nothing is asked.
    private func pollRelay() {
        guard lan.signIn()?.relayEndpoint != nil else { return }
        Task { @MainActor [weak self] in
            while let lan = self?.lan {
                // A screen no longer in the window (Back) stops asking; one
                // hidden behind the session it joined asks nothing meanwhile.
                guard let widget = self?.widget, gtk_widget_get_root(widget) != nil else { return }
                if gtk_widget_get_mapped(widget) == 0 {
                    try? await Task.sleep(for: Self.relayPollInterval)
                    continue
                }
                let found = await lan.relayedSessions()
                guard let self, gtk_widget_get_root(self.widget) != nil else { return }
                if found != self.relayed {
                    self.relayed = found
                    self.refresh()
                }
                try? await Task.sleep(for: Self.relayPollInterval)
            }
        }
    }

    func focusCode() { gtk_widget_grab_focus(codeEntry) }

    func leaveForNextChild() async {
        await session?.finish()
        session = nil
        lan.discovery.stop()
    }

    private func refresh() {
        UI.clear(nearby)
        let cards = SessionCards.make(nearby: lan.discovery.sessions, relayed: relayed, activity: activity.kind,
                                      relay: lan.signIn()?.relayEndpoint,
                                      relayFirst: lan.preferences.settings.throughSchoolServer)
        if cards.isEmpty {
            UI.append(nearby, UI.label(activity.lookingNearby, classes: ["hint"]))
        }
        for card in cards {
            // The host's avatar and the session's sign, as on the host's
            // screen: a pupil matches the pictures, not a number.
            let pictureKey = card.pictureAddress.map { "\(card.id) \($0.host):\($0.port)" }
            if let pictureKey, let address = card.pictureAddress { askForPicture(at: address, key: pictureKey) }
            let face = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 10, [
                Avatar.make(name: card.hostName, png: pictureKey.flatMap { hostPictures[$0] }, size: 64),
                SessionSignView.make(card.sign, height: 80, copy: card.isCopy),
            ])
            gtk_widget_set_halign(face, GTK_ALIGN_CENTER)
            let content = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [
                face,
                UI.label(card.hostName, classes: ["card-name"]),
                UI.label(card.sources.map(Self.name(of:)).joined(separator: " · "), classes: ["hint"]),
            ])
            let b = gtk_button_new()!
            gtk_button_set_child(ts_button(b), content)
            UI.style(b, ["card", "session-card"])
            var name = String(format: `_`("Join %@"), card.hostName) + " — " + SessionSignView.words(card.sign)
            if card.isCopy {
                // Someone else announces this session's id: its sign is
                // struck through and it says so, so it never looks like the real one.
                UI.append(content, UI.label("⚠ " + `_`("Maybe a copy! Ask your teacher."), classes: ["copy-warning"]))
                UI.style(b, ["session-copy"])
                name += " — " + `_`("Maybe a copy! Ask your teacher.")
            }
            UI.accessibleLabel(b, name)
            let routes = card.routes
            Signal.connect(UI.raw(b), "clicked") { [weak self] in self?.join(routes) }
            UI.append(nearby, b)
        }
        let lines = DiscoveryMechanism.allCases.map { m in
            "\(Self.name(of: m)): \(Self.describe(lan.discovery.status[m] ?? .off))"
        }
        UI.setText(diagnostics, lines.joined(separator: "\n"))
    }

    /// Fetches a nearby host's picture for its card, once; the cards are
    /// drawn again when it arrives. An older host, or one without a
    /// picture, leaves the letter badge.
    private func askForPicture(at address: SessionAddress, key: String) {
        guard !askedForPicture.contains(key) else { return }
        askedForPicture.insert(key)
        Task { @MainActor [weak self] in
            guard let png = await self?.lan.hostPicture(address.host, address.port),
                  AvatarPNG.isAcceptable(png), let self else { return }
            self.hostPictures[key] = png
            self.refresh()
        }
    }

    private func joinByCode() {
        let text = UI.entryText(codeEntry).trimmingCharacters(in: .whitespaces)
        do {
            let input = try JoinInput(parsing: text)
            join(lan.discovery.joinCandidates(for: input).map(JoinRoute.direct))
        } catch {
            UI.setText(status, `_`("That code has 6 digits, like 000142. Or type an address like 10.0.0.5:47851."))
        }
    }

    private func join(_ candidates: [JoinRoute]) {
        guard let nav, session == nil, !candidates.isEmpty else { return }
        lan.rename(UI.entryText(nameEntry))
        let profile = lan.preferences.profile
        let role: PeerRole = gtk_toggle_button_get_active(ts_toggle(observer)) != 0 ? .observer : .drawer
        let controller = activity.makeJoiner(nav: nav, lan: lan)
        controller.room.onStatus = { [weak self] text in
            guard let self else { return }
            UI.setText(self.status, text)
            if controller.room.ended != nil {
                self.session = nil
                UI.clear(self.joinedSign)
                self.showChoosing(true)
            }
        }
        controller.room.onLobby = { [weak self] lobby in self?.showWaiting(lobby) }
        session = controller
        showChoosing(false)
        UI.setText(status, `_`("Asking the host…"))
        Task { @MainActor in
            for route in candidates {
                do {
                    try await controller.join(route: route, name: profile.name, role: role)
                    return
                } catch {
                    continue
                }
            }
            self.session = nil
            self.showChoosing(true)
            UI.setText(self.status, `_`("Nobody answered at that code. Is the host's lobby open?"))
        }
    }

    private func showChoosing(_ on: Bool) {
        for w in choosing { gtk_widget_set_visible(w, on ? 1 : 0) }
        // Back to choosing, typing goes into the code again (hidden, it
        // had lost the keyboard to the name).
        if on { focusCode() }
        FileHandle.standardError.write(Data("join: \(on ? "choosing" : "joining")\n".utf8))
    }

    private func showWaiting(_ lobby: Lobby) {
        UI.clear(joinedSign)
        let host: String = lobby.members.first(where: { $0.index == 0 }).map(\.name) ?? ""
        UI.append(joinedSign, Avatar.make(name: host, png: session?.room.avatar(of: 0), size: 64))
        UI.append(joinedSign, SessionSignView.make(SessionSign(sessionID: lobby.sessionID), height: 80))
        // Who else is in, by the pictures they drew (the host passes on
        // accepted members' pictures; a letter badge until one arrives).
        for m in lobby.members where m.index != 0 && m.index != session?.room.myIndex && m.state == .accepted {
            UI.append(joinedSign, Avatar.make(name: m.name, png: session?.room.avatar(of: m.index), size: 48))
        }
        let names = lobby.members.filter { $0.state == .accepted }.map(\.name).joined(separator: ", ")
        let waiting = session?.room.myIndex == nil ? `_`("Asking the host…") : `_`("Waiting for the host to start…")
        if session?.room.myIndex != nil { FileHandle.standardError.write(Data("join: let in, waiting\n".utf8)) }
        UI.setText(status, "\(activity.waitingSummary(lobby))\n\(names)\n\(waiting)")
    }

    static func name(of source: SessionCard.Source) -> String {
        switch source {
        case .nearby(let m): name(of: m)
        case .schoolServer: `_`("School server")
        }
    }

    static func name(of m: DiscoveryMechanism) -> String {
        switch m {
        case .dnssd: `_`("Network search")
        case .beacon: `_`("Classroom signal")
        case .code: `_`("Code")
        }
    }

    static func describe(_ s: MechanismStatus) -> String {
        switch s {
        case .off: `_`("off")
        case .starting: `_`("starting")
        case .running: `_`("working")
        case .limited(let p): `_`("working, but: ") + problem(p)
        case .unavailable(let p): `_`("not available: ") + problem(p)
        }
    }

    static func problem(_ p: MechanismProblem) -> String {
        switch p {
        case .daemonNotRunning: `_`("the network search service (Avahi) is not running on this computer")
        case .portInUse: `_`("another program uses our port")
        case .nameCollision: `_`("another computer uses the same name")
        case .noMulticastRoute: `_`("this network blocks group messages")
        case .noNetwork: `_`("no network")
        case .permissionDenied: `_`("not allowed by the system")
        default: p.description
        }
    }
}
