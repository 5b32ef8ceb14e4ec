import Foundation
import LearnModel
import TeamsketchCore

/// A Team Sketch over the LAN from this device: hosting one (under this
/// device's classroom settings, which every member's app then obeys) and
/// the join screen for any activity.
@MainActor
final class SessionDesk {
    private unowned let app: TeamsketchApp

    init(app: TeamsketchApp) { self.app = app }

    func host(_ meta: SketchMeta) {
        let settings = app.preferences.settings
        let lan = app.lan
        let session = SketchSession(nav: app, lan: lan)
        let screen = HostLobbyScreen(nav: app, lan: lan, session: session)
        app.replace(.lobby, with: screen.widget, owner: screen)
        let params = SessionParams(name: meta.name, guides: meta.guides, timeLimitMinutes: meta.timeLimitMinutes)
        let name = app.preferences.profile.name
        Task { @MainActor in
            do {
                try await session.host(params: params, settings: settings.sessionSettings, name: name)
                screen.hosting()
            } catch {
                app.showError(`_`("The session could not be opened."), error)
                app.showHome()
            }
        }
    }

    func showJoin(_ activity: any ActivityLobbyUI) {
        app.leaveCanvas()
        let screen = JoinScreen(nav: app, lan: app.lan, activity: activity)
        app.replace(.join, with: screen.widget, owner: screen)
        screen.focusCode()
    }
}
