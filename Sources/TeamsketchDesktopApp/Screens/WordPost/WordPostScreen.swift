import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// The game screen: the hint on top, the player's word as slots,
/// their letter tiles, teammates' trains at the edges. It only turns drops
/// into game actions and effects into animations; the rules are
/// LearnModel's `WordPostGame`. `GameLink` is where the actions go: the
/// local game when playing alone, the host when playing together.
@MainActor
final class WordPostScreen {
    /// Sends this player's intents to whoever owns the game.
    struct GameLink {
        var place: (_ letter: LetterID, _ slot: Int) -> Void
        var send: (_ letter: LetterID, _ to: PlayerID) -> Void
        var nextRound: (() -> Void)?
        var end: () -> Void
    }

    let widget: Widget
    let board = BoardView()
    private weak var nav: (any Navigator)?
    private let hint: Widget
    private let roundLabel: Widget
    private let overlay: Widget
    private let overlayTitle: Widget
    private let nextButton: Widget
    private let doneButton: Widget
    private let help: HelpOverlay
    private(set) var game: WordPostGame
    let me: PlayerID
    var names: [PlayerID: String] = [:]
    var link: GameLink?
    private var seating: [PlayerID] = []
    private var lastDrop: (letter: LetterID, at: Point)?
    private let sounds: SoundClient

    init(nav: any Navigator, game: WordPostGame, me: PlayerID, sounds: SoundClient) {
        self.nav = nav
        let voice = nav.voice
        self.game = game
        self.me = me
        self.sounds = sounds
        hint = UI.label("", classes: ["hint-text"])
        gtk_label_set_justify(ts_label(hint), GTK_JUSTIFY_CENTER)
        gtk_widget_set_hexpand(hint, 1)
        roundLabel = UI.label("", classes: ["hint"])
        gtk_label_set_wrap(ts_label(roundLabel), 0)
        overlayTitle = UI.label("", classes: ["reward-title"])
        nextButton = UI.button(`_`("Next word"), icon: "go-next-symbolic", classes: ["big-button", "suggested-action"]) {}
        doneButton = UI.button(`_`("Back to the start"), icon: "go-home-symbolic", classes: ["big-button", "suggested-action"]) {}
        // Read aloud in the app's language, as its captions are.
        help = HelpOverlay(speech: voice.speech, language: voice.language)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 0)

        overlay = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 24, classes: ["reward"], [overlayTitle, nextButton, doneButton])
        let bar = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["toolbar"])
        UI.append(bar, UI.iconButton("go-home-symbolic", tooltip: `_`("End the game"), classes: ["tool"]) {
            [weak self] in self?.confirmEnd()
        })
        UI.append(bar, hint)
        // The hint read aloud, in the word list's language.
        UI.append(bar, ReadAloudButton.make(voice.speech, language: game.pool.language == "de" ? "de" : "en") { [weak self] in
            guard let self, let word = self.game.words[self.me] else { return "" }
            return word.item.hint
        })
        UI.append(bar, roundLabel)
        UI.append(bar, PictureHelp.questionMark(`_`("How to play")) { [weak self] in self?.help.toggle() })
        UI.append(widget, bar)
        UI.center(overlay)
        gtk_widget_set_visible(overlay, 0)
        let stack = gtk_overlay_new()!
        gtk_overlay_set_child(ts_overlay(stack), board.widget)
        gtk_overlay_add_overlay(ts_overlay(stack), help.widget)
        gtk_overlay_add_overlay(ts_overlay(stack), overlay)
        UI.expand(stack)
        UI.append(widget, stack)

        Signal.connect(UI.raw(nextButton), "clicked") { [weak self] in self?.link?.nextRound?() }
        Signal.connect(UI.raw(doneButton), "clicked") { [weak self] in self?.nav?.showHome() }
        board.onDrop = { [weak self] tile, target, at in self?.dropped(LetterID(tile), target, at) }
        board.onTeammatesReordered = { [weak self] order in self?.seating = order.map { PlayerID($0) } }
        refresh()
    }

    /// A solo game: actions go straight into the local game.
    static func solo(nav: any Navigator, pool: WordPool, name: String, sounds: SoundClient,
                     previouslyFinished: Set<String> = []) -> WordPostScreen {
        // TEAMSKETCH_WORDPOST_SEED makes a game repeatable (tests, bug reports).
        let seed = ProcessInfo.processInfo.environment["TEAMSKETCH_WORDPOST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64.max)
        let game = WordPostGame(pool: pool, players: [0], seed: seed, at: Date(), previouslyFinished: previouslyFinished)
        let screen = WordPostScreen(nav: nav, game: game, me: 0, sounds: sounds)
        screen.names = [0: name]
        screen.link = GameLink(
            place: { [weak screen] letter, slot in screen?.applyLocally(.place(letter: letter, by: 0, slot: slot, at: Date())) },
            send: { [weak screen] letter, to in screen?.applyLocally(.send(letter: letter, from: 0, to: to)) },
            nextRound: { [weak screen] in screen?.applyLocally(.nextRound(at: Date())) },
            end: { [weak screen] in screen?.applyLocally(.endGame(at: Date())) })
        screen.refresh()
        return screen
    }

    private func applyLocally(_ action: WordPostAction) {
        var g = game
        let effects = g.apply(action)
        show(g, effects: effects)
    }

    // MARK: from the player

    private func dropped(_ letter: LetterID, _ target: BoardView.Drop, _ at: Point) {
        lastDrop = (letter, at)
        switch target {
        case .slot(let i): link?.place(letter, i)
        case .teammate(let id): link?.send(letter, PlayerID(id))
        case .nowhere:
            if let t = game.hands[me]?.first(where: { $0.id == letter }) {
                board.springBack(tile: Int(letter), grapheme: t.grapheme, from: at)
            }
        }
    }

    private func confirmEnd() {
        Alert.show(parent: nav?.window, title: `_`("End the game?"), message: `_`("The words you finished are kept."), choices: [
            .init(`_`("End"), classes: ["destructive-action"]) { [weak self] in
                self?.recordEndedRound()
                self?.link?.end()
                self?.nav?.showHome()
            },
            .init(`_`("Keep playing"), classes: ["suggested-action"]),
        ])
    }

    // MARK: to the player

    /// A new game state and what led to it: update the board, then animate.
    func show(_ newGame: WordPostGame, effects: [WordPostEffect]) {
        let before = game
        game = newGame
        refresh()
        for e in effects {
            if let sound = WordPostSoundCues.sound(for: e, me: me) { sounds.play(sound) }
            switch e {
            case .placed(let letter, let player, let slot) where player == me:
                let g = before.hands[me]?.first { $0.id == letter }?.grapheme ?? ""
                let from = lastDrop?.letter == letter ? lastDrop!.at : Point(0, 0)
                board.snap(tile: Int(letter), grapheme: g, from: from, slot: slot)
            case .rejected(let letter, let player, _) where player == me:
                let g = game.hands[me]?.first { $0.id == letter }?.grapheme ?? ""
                board.springBack(tile: Int(letter), grapheme: g, from: lastDrop?.at ?? Point(0, 0))
            case .sent(let letter, let from, let to) where from == me:
                let g = before.hands[me]?.first { $0.id == letter }?.grapheme ?? ""
                board.sent(tile: Int(letter), grapheme: g, from: lastDrop?.at ?? Point(0, 0), teammate: to)
            case .wordFinished(let player) where player == me:
                board.celebrate()
            case .roundFinished:
                recordRound()
                // Alone, a round is one word; together, one word each.
                showOverlay(game.players.count == 1 ? `_`("★ Super! The word is done! ★")
                                                    : `_`("★ Super! Every word is done! ★"),
                            button: link?.nextRound != nil)
            case .roundDealt:
                gtk_widget_set_visible(overlay, 0)
                gtk_widget_grab_focus(board.widget)
            case .gameEnded:
                recordRound()
                showOverlay(`_`("★ All words posted! ★"), button: true, ended: true)
            default:
                break
            }
        }
    }

    /// Stats per named player, stored locally and synced later; the
    /// recorder decides whether this device records and never records a
    /// round twice. Set by whoever opens the screen.
    var stats = RoundStatsRecorder(seat: .member, store: nil)

    private func recordRound(of game: WordPostGame? = nil) {
        do {
            try stats.roundFinished((game ?? self.game).rounds.last, names: names, me: me)
        } catch {
            nav?.showError(`_`("The results could not be saved."), error)
        }
    }

    /// Ending a game mid-word keeps that round too, as the game ends it
    /// (the word not finished, the time and letters spent so far): a
    /// teacher sees what the group tried, not only what it finished. Done
    /// here, before this screen closes, since the host's end reaches it
    /// only after.
    private func recordEndedRound() {
        var ended = game
        guard !ended.apply(.endGame(at: Date())).isEmpty else { return }
        recordRound(of: ended)
    }

    /// A short message over the board (someone left, the connection broke).
    func showNotice(_ text: String) {
        UI.setText(overlayTitle, text)
        gtk_widget_set_visible(nextButton, 0)
        gtk_widget_set_visible(doneButton, game.isEnded || link == nil ? 1 : 0)
        gtk_widget_set_visible(overlay, 1)
        if !game.isEnded {
            runAfter(ms: 3000) { [weak self] in
                guard let self, !self.game.isEnded, case .playing = self.game.phase else { return }
                gtk_widget_set_visible(self.overlay, 0)
            }
        }
    }

    private func showOverlay(_ title: String, button: Bool, ended: Bool = false) {
        UI.setText(overlayTitle, title)
        FileHandle.standardError.write(Data("game says: \(title)\n".utf8))
        gtk_widget_set_visible(nextButton, button && !ended ? 1 : 0)
        gtk_widget_set_visible(doneButton, ended ? 1 : 0)
        gtk_widget_set_visible(overlay, 1)
        // The keyboard goes to the button, so Enter carries on.
        gtk_widget_grab_focus(ended ? doneButton : button ? nextButton : board.widget)
    }

    func refresh() {
        guard let word = game.words[me] else {
            UI.setText(hint, "")
            board.update(BoardModel())
            return
        }
        UI.setText(hint, word.item.hint)
        UI.setText(roundLabel, String(format: `_`("Word %d"), game.round))
        var model = BoardModel()
        model.slots = word.slots.map { s in BoardModel.Slot(shown: s.isFilled ? s.grapheme : nil) }
        model.hand = (game.hands[me] ?? []).map { BoardModel.Tile(id: Int($0.id), grapheme: $0.grapheme) }
        let others = game.players.filter { $0 != me }
        let ordered = seating.filter(others.contains) + others.filter { !seating.contains($0) }
        model.teammates = ordered.prefix(3).map { p in
            BoardModel.Teammate(id: p, name: names[p] ?? String(format: `_`("Player %d"), Int(p) + 1),
                                finished: game.words[p]?.isFinished ?? false)
        }
        model.finished = word.isFinished
        board.update(model)
    }
}
