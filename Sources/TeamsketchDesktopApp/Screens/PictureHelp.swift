import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// The "?" of a pupil's screen and what it opens: each step of
/// `ScreenHelp` as the picture of its button (the same icon, pen or line
/// the screen shows) beside a few big words, a speaker that reads them all
/// aloud, and one big "OK". A window over the screen, like a question.
@MainActor
enum PictureHelp {
    /// The "?" button (56 px, like the screen's other tools).
    static func button(nav: any Navigator, name: String, steps: @escaping @MainActor () -> [ScreenHelp.Step]) -> Widget {
        questionMark(`_`("How it works")) { [weak nav] in
            guard let nav else { return }
            show(over: nav.window, voice: nav.voice, name: name, steps: steps())
        }
    }

    /// A big "?" on the help colour: the same on every pupil screen (the
    /// game's "How to play" too), a mark a child knows before reading.
    static func questionMark(_ name: String, action: @escaping @MainActor () -> Void) -> Widget {
        let button = gtk_button_new()!
        gtk_button_set_child(ts_button(button), UI.label("?", classes: ["help-mark"]))
        UI.style(button, ["tool", "help-button"])
        UI.accessibleLabel(button, name)
        Signal.connect(UI.raw(button), "clicked", action)
        return button
    }

    static func show(over parent: Widget?, voice: Voice, name: String, steps: [ScreenHelp.Step]) {
        let win = gtk_window_new()!
        gtk_window_set_title(ts_window(win), `_`("How it works"))
        gtk_window_set_modal(ts_window(win), 1)
        gtk_window_set_resizable(ts_window(win), 0)
        if let parent { gtk_window_set_transient_for(ts_window(win), ts_window(parent)) }
        let content = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 14, classes: ["alert", "picture-help"])
        let rows = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 10)
        for step in steps {
            let picture = Self.picture(step)
            gtk_widget_set_size_request(picture, 64, 56)
            gtk_widget_set_halign(picture, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(picture, GTK_ALIGN_CENTER)
            let words = UI.label(Self.words(step), classes: ["help-words"])
            gtk_label_set_wrap(ts_label(words), 0)
            gtk_label_set_xalign(ts_label(words), 0)
            UI.append(rows, UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18, [picture, words]))
        }
        UI.append(content, rows)
        let said = steps.map(Self.words).joined(separator: ". ")
        let read = ReadAloudButton.make(voice) { said }
        let weakWin = WeakWidget(win)
        let ok = UI.button(`_`("OK"), icon: "object-select-symbolic", classes: ["choice", "suggested-action"]) {
            if let w = weakWin.widget { gtk_window_destroy(ts_window(w)) }
        }
        let actions = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 24, [read, ok])
        gtk_widget_set_halign(actions, GTK_ALIGN_END)
        UI.append(content, actions)
        gtk_window_set_child(ts_window(win), content)
        gtk_window_present(ts_window(win))
        gtk_widget_grab_focus(ok)
        FileHandle.standardError.write(Data("help: \(name) \(steps.map(\.rawValue).joined(separator: ","))\n".utf8))
    }

    private static func picture(_ step: ScreenHelp.Step) -> Widget {
        switch step {
        case .choosePen:
            let pen = PenButton.make(.red) {}
            gtk_widget_set_can_target(pen, 0)
            gtk_widget_set_focusable(pen, 0)
            return pen
        case .chooseWidth:
            return WidthIcon.make(width: .broad)
        default:
            let image = gtk_image_new_from_icon_name(icon(step))!
            gtk_image_set_pixel_size(ts_image(image), 40)
            return image
        }
    }

    private static func icon(_ step: ScreenHelp.Step) -> String {
        switch step {
        case .choosePen, .chooseWidth, .draw: "document-edit-symbolic"
        case .undoOwn: "edit-undo-symbolic"
        case .eraseOwn, .eraseAny: "edit-clear-symbolic"
        case .clearForEveryone: "edit-clear-all-symbolic"
        case .zoom: "zoom-in-symbolic"
        case .goHome: "go-home-symbolic"
        case .friendsJoin: "avatar-default-symbolic"
        case .letFriendsIn: "emblem-ok-symbolic"
        case .startTogether: "media-playback-start-symbolic"
        case .tapTheSign: "view-app-grid-symbolic"
        case .typeTheCode: "input-dialpad-symbolic"
        case .waitToBeLetIn: "content-loading-symbolic"
        }
    }

    static func words(_ step: ScreenHelp.Step) -> String {
        switch step {
        case .choosePen: `_`("Tap a colour")
        case .chooseWidth: `_`("Thin or thick")
        case .draw: `_`("Draw with your finger or the mouse")
        case .undoOwn: `_`("Take back your last line")
        case .eraseOwn: `_`("Rub out your own lines")
        case .eraseAny: `_`("Rub out lines")
        case .clearForEveryone: `_`("Wipe the sheet clean for everyone")
        case .zoom: `_`("Make the sheet bigger or smaller")
        case .goHome: `_`("Back to the start: your sketch is kept")
        case .friendsJoin: `_`("Your friends tap your sign or type your code")
        case .letFriendsIn: `_`("Let them in with the tick")
        case .startTogether: `_`("Start when everyone is there")
        case .tapTheSign: `_`("Tap the sign your friend's screen shows")
        case .typeTheCode: `_`("Or type the code from your friend's screen")
        case .waitToBeLetIn: `_`("Wait until your friend lets you in")
        }
    }
}
