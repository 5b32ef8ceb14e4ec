import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// "Me": the pupil's name, typed once, and their picture, drawn with the
/// same felt pens as a sketch on a small square sheet ("Start again" clears
/// it). The picture is kept as a 128-pixel PNG with the profile and shown
/// wherever the pupil appears: lobbies, join cards, the game's trains.
@MainActor
final class ProfileScreen {
    let widget: Widget
    private weak var nav: (any Navigator)?
    private let profile: Profile
    private let keep: @MainActor (_ name: String, _ avatarPNG: Data?) throws -> Void
    private let nameEntry: Widget
    private let sheetHolder: Widget
    private var canvas: CanvasView?
    private var penButtons: [PenColor: Widget] = [:]
    private var pen = PenColor.black
    /// Whether the pupil drew anything since the screen opened or cleared:
    /// an untouched sheet keeps the picture they had.
    private var drew = false
    private var cleared = false

    /// The avatar's sheet, in canvas units; exported at half that.
    static let sheetSide = 256.0
    static let pictureSide = 128

    /// `keep` saves the name and picture as this device's pupil
    /// (`PupilIdentity`'s rule).
    init(nav: any Navigator, profile: Profile, signedInPupil: Bool,
         keep: @escaping @MainActor (_ name: String, _ avatarPNG: Data?) throws -> Void) {
        self.nav = nav
        self.profile = profile
        self.keep = keep
        nameEntry = gtk_entry_new()!
        UI.style(nameEntry, ["form-entry"])
        gtk_editable_set_text(ts_editable(nameEntry), profile.name)
        UI.accessibleLabel(nameEntry, `_`("My name"))
        // Signed in, the name is the account's: it decides whose work
        // "Open" shows, so it is not typed here.
        if signedInPupil { gtk_widget_set_sensitive(nameEntry, 0) }
        sheetHolder = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        gtk_widget_set_halign(sheetHolder, GTK_ALIGN_CENTER)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 16)
        UI.center(widget)

        UI.append(widget, UI.label(`_`("Me"), classes: ["home-title"]))
        let nameRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [UI.label(`_`("Name"), classes: ["form-label"]), nameEntry])
        gtk_widget_set_halign(nameRow, GTK_ALIGN_CENTER)
        UI.append(widget, nameRow)
        let current = profile.avatarPNG.map { [UInt8]($0) }
        let pictureRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 24, [sheetHolder])
        gtk_widget_set_halign(pictureRow, GTK_ALIGN_CENTER)
        if current != nil {
            // What they drew before, beside the sheet, until they draw anew.
            UI.append(pictureRow, Avatar.make(name: profile.name, png: current, size: 96))
        }
        UI.append(widget, pictureRow)
        UI.append(widget, pens())
        let again = UI.button(`_`("Start again"), icon: "edit-clear-all-symbolic", classes: ["big-button"]) {
            [weak self] in self?.startAgain()
        }
        let back = UI.button(`_`("Back"), icon: "go-previous-symbolic", classes: ["big-button"]) { [weak nav] in nav?.showHome() }
        let done = UI.button(`_`("Done"), icon: "object-select-symbolic", classes: ["big-button", "suggested-action"]) {
            [weak self] in self?.save()
        }
        var buttons = [back, again, done]
        if signedInPupil {
            // The next child on a shared laptop: one tap, then their pictures.
            buttons.insert(UI.button(`_`("Not me"), icon: "system-switch-user-symbolic", classes: ["big-button"]) {
                [weak nav] in nav?.notMe()
            }, at: 1)
        }
        let actions = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 32, buttons)
        gtk_widget_set_halign(actions, GTK_ALIGN_CENTER)
        UI.append(widget, actions)
        newSheet()
    }

    func close() { canvas?.teardown() }

    private func pens() -> Widget {
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        gtk_widget_set_halign(row, GTK_ALIGN_CENTER)
        for color in PenColor.allCases {
            let b = PenButton.make(color, classes: ["big"]) { [weak self] in self?.choose(color) }
            penButtons[color] = b
            UI.append(row, b)
        }
        return row
    }

    private func choose(_ color: PenColor) {
        pen = color
        canvas?.pen = Pen(color: color, width: .broad)
        for (c, b) in penButtons { UI.setClass(b, "active", c == color) }
    }

    private func newSheet() {
        canvas?.teardown()
        UI.clear(sheetHolder)
        let meta = SketchMeta(name: "avatar", width: Self.sheetSide, height: Self.sheetSide)
        let view = CanvasView(document: SketchDocument(meta: meta), author: profile.name,
                              permissions: .solo(ClassroomSettings(eraserAllowed: false, undoAllowed: true)))
        gtk_widget_set_hexpand(view.widget, 0)
        gtk_widget_set_vexpand(view.widget, 0)
        gtk_widget_set_size_request(view.widget, 300, 300)
        UI.accessibleLabel(view.widget, `_`("My picture"))
        view.onOp = { [weak self] _ in self?.drew = true }
        canvas = view
        UI.append(sheetHolder, view.widget)
        choose(pen)
    }

    private func startAgain() {
        drew = false
        cleared = true
        newSheet()
    }

    private func save() {
        var png = profile.avatarPNG
        if let doc = canvas?.document, drew {
            png = (try? SketchExport.pngData(doc, width: Self.pictureSide)).map { Data($0) }
        } else if cleared {
            png = nil
        }
        do {
            try keep(UI.entryText(nameEntry), png)
        } catch {
            nav?.showError(`_`("Your picture could not be saved."), error)
            return
        }
        nav?.showHome()
    }
}
