import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Buchstaben Post from the start screen on: choosing a word list, a game
/// alone, a team game this device hosts, and the game screen once a team
/// game's first state arrives. Each player's results are filed under the
/// account `GameAccounts` finds for them.
@MainActor
final class GameDesk {
    private unowned let app: TeamsketchApp
    /// Whose results each player's are, and the words they already finished.
    private lazy var accounts = GameAccounts.live(store: app.store, signIn: { [weak app] in app?.school.signIn },
                                                  classRoster: { [weak app] in await app?.school.classRoster() })

    init(app: TeamsketchApp) { self.app = app }

    func showStart() {
        app.leaveCanvas()
        // A signed-in pupil's class may have lists from the teacher.
        let screen = WordPostStartScreen(nav: app, offer: app.wordPools.offer(classID: app.school.signIn?.pupilClassID))
        app.replace(.wordPostStart, with: screen.widget, owner: screen)
    }

    func playAlone(_ pool: WordPool) {
        accounts.forgetClassRoster()
        let name = app.preferences.profile.name
        let screen = WordPostScreen.solo(nav: app, pool: pool, name: name, sounds: app.preferences.soundClient { .live() },
                                         previouslyFinished: accounts.finishedWords(of: name))
        screen.stats = RoundStatsRecorder(seat: .solo, store: app.storeClient, accounts: accounts.accounts())
        app.replace(.wordPost, with: screen.widget, owner: screen)
        gtk_widget_grab_focus(screen.board.widget)
    }

    func host(_ pool: WordPool) {
        accounts.refreshClassRoster()
        let lan = app.lan
        let controller = WordPostSession(nav: app, lan: lan)
        let screen = HostLobbyScreen(nav: app, lan: lan, session: controller)
        app.replace(.lobby, with: screen.widget, owner: screen)
        let name = app.preferences.profile.name
        let finished = accounts.finishedWords(of: name)
        Task { @MainActor in
            do {
                try await controller.host(pool: pool, name: name, previouslyFinished: finished)
                screen.hosting()
            } catch {
                app.showError(`_`("The game could not be opened."), error)
                app.showHome()
            }
        }
    }

    /// The game screen of a team game, once the first state arrives. Only
    /// the host records the rounds (`RoundStatsRecorder`), so only it needs
    /// the accounts.
    func openShared(game: WordPostGame, me: PlayerID, names: [PlayerID: String],
                    link: WordPostScreen.GameLink, isHost: Bool, soundsOn: Bool) -> WordPostScreen {
        let screen = WordPostScreen(nav: app, game: game, me: me, sounds: SoundClient.choosing(soundsOn: soundsOn) { .live() })
        screen.names = names
        screen.link = link
        screen.stats = RoundStatsRecorder(seat: isHost ? .host : .member, store: app.storeClient,
                                          accounts: isHost ? accounts.accounts() : PlayerAccounts())
        screen.refresh()
        app.replace(.wordPost, with: screen.widget, owner: screen)
        gtk_widget_grab_focus(screen.board.widget)
        return screen
    }
}
