import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Saved sketches as big thumbnails; one tap reopens a sketch. Under each,
/// the pictures of those who drew in it (a team sketch shows the team), as
/// far as this computer knows them.
@MainActor
final class GalleryScreen {
    let widget: Widget
    /// Who is looking: what they may see and throw away, and whose
    /// teacher's words they get, are `OwnWork`'s and `PupilFeedback`'s rules.
    struct Onlooker {
        var signIn: SchoolSignIn?
        var rememberedServer: String?
        var profile: Profile
    }

    private weak var nav: (any Navigator)?
    private let who: Onlooker
    private let grades: GradeBook
    /// Each card's row for its authors' pictures, filled once they are read.
    private var faceRows: [UUID: Widget] = [:]
    private let pictures = AuthorPictureLoader()
    private var authorsTask: Task<Void, Never>?
    private var thumbnailsTask: Task<Void, Never>?
    /// Each card's picture, by sketch.
    private var cardPictures: [UUID: Widget] = [:]

    /// `listed`: the sketches (read away from the main thread, the first
    /// screenful's missing thumbnails drawn), or why they could not be
    /// listed.
    init(listed: Result<[SketchSummary], any Error>, library: SketchLibrary, grades: GradeBook, who: Onlooker,
         nav: any Navigator) {
        self.nav = nav
        self.who = who
        self.grades = grades
        self.library = library
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        let bar = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["toolbar"])
        UI.append(bar, UI.iconButton("go-home-symbolic", tooltip: `_`("Back to the start"), classes: ["tool"]) {
            [weak nav] in nav?.showHome()
        })
        let title = UI.label(`_`("My sketches"), classes: ["sketch-title"])
        gtk_widget_set_hexpand(title, 1)
        gtk_label_set_xalign(ts_label(title), 0)
        UI.append(bar, title)
        UI.append(bar, UI.iconButton("document-open-symbolic", tooltip: `_`("Open a file (.xopp, .teamsketch)"),
                                     classes: ["tool"]) { [weak self] in self?.importFile() })
        UI.append(widget, bar)

        let scroller = gtk_scrolled_window_new()!
        UI.expand(scroller)
        let flow = gtk_flow_box_new()!
        gtk_flow_box_set_selection_mode(ts_flow_box(flow), GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(ts_flow_box(flow), 1)
        gtk_flow_box_set_max_children_per_line(ts_flow_box(flow), 6)
        gtk_widget_set_valign(flow, GTK_ALIGN_START)
        gtk_widget_set_margin_top(flow, 18)
        gtk_widget_set_margin_start(flow, 18)
        gtk_widget_set_margin_end(flow, 18)
        gtk_scrolled_window_set_child(ts_scrolled(scroller), flow)
        UI.append(widget, scroller)

        let summaries: [SketchSummary]
        do {
            summaries = try listed.get()
        } catch {
            summaries = []
            nav.showError(`_`("Your sketches could not be listed."), error)
        }
        self.flow = flow
        switch OwnWork.Listing.decide(signIn: who.signIn, rememberedServer: who.rememberedServer, now: Date()) {
        case .all:
            show(summaries)
        case .signInFirst:
            note(`_`("Tap your picture at the top of the start screen and sign in to see your sketches."))
        case .pupil(let name):
            // Which sketches are theirs needs every op read: away from the
            // main thread, then shown.
            Task { @MainActor [weak self] in
                let mine = await Task.detached {
                    library.withThumbnails(library.owned(by: name, among: summaries), first: SketchLibrary.thumbnailsAtOnce)
                }.value
                self?.show(mine)
            }
        }
    }

    private var flow: Widget?
    private let library: SketchLibrary

    private func show(_ summaries: [SketchSummary]) {
        guard let flow else { return }
        if summaries.isEmpty { return note(`_`("No sketches yet. Start a new one!")) }
        for summary in summaries {
            gtk_flow_box_append(ts_flow_box(flow), card(summary))
        }
        showAuthors(summaries.map(\.id))
        drawMissing(summaries.filter { $0.thumbnail == nil })
    }

    /// The thumbnails the gallery was shown without, drawn one after the
    /// other away from the main thread, each on its card as it comes.
    private func drawMissing(_ summaries: [SketchSummary]) {
        guard !summaries.isEmpty else { return }
        let library = library
        thumbnailsTask = Task { @MainActor [weak self] in
            for summary in summaries {
                let png = await Task.detached(priority: .utility) { library.thumbnail(for: summary) }.value
                guard let self, !Task.isCancelled else { return }
                if let png, let picture = self.cardPictures[summary.id] { Self.show(png, on: picture) }
            }
        }
    }

    private static func show(_ png: Data, on picture: Widget) {
        guard let texture = Texture.png(png) else { return }
        gtk_picture_set_paintable(ts_picture(picture), texture)
        g_object_unref(UnsafeMutableRawPointer(texture))
    }

    /// The pictures first; only if any is known, who drew in each sketch
    /// (every op read, away from the main thread), then the faces.
    private func showAuthors(_ ids: [UUID]) {
        guard !ids.isEmpty else { return }
        let library = library
        pictures.load(from: library, own: who.profile) { [weak self] in
            guard let self, !self.pictures.isEmpty else { return }
            self.authorsTask = Task { @MainActor [weak self] in
                let authors = await Task.detached(priority: .utility) { library.authors(of: ids) }.value
                guard let self, !Task.isCancelled else { return }
                for (id, names) in authors {
                    guard let row = self.faceRows[id] else { continue }
                    for name in names.lazy.filter({ self.pictures.picture(for: $0) != nil }).prefix(4) {
                        UI.append(row, Avatar.make(name: name, picture: self.pictures.picture(for: name), size: 32))
                    }
                }
            }
        }
    }

    isolated deinit {
        authorsTask?.cancel()
        thumbnailsTask?.cancel()
    }

    private func note(_ text: String) {
        guard let flow else { return }
        let label = UI.label(text, classes: ["empty-note"])
        UI.center(label)
        gtk_flow_box_append(ts_flow_box(flow), label)
    }

    private func card(_ summary: SketchSummary) -> Widget {
        let picture = gtk_picture_new()!
        gtk_widget_set_size_request(picture, 240, 150)
        if let png = summary.thumbnail { Self.show(png, on: picture) }
        cardPictures[summary.id] = picture
        let name = UI.label(summary.name, classes: ["card-name"])
        gtk_label_set_ellipsize(ts_label(name), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(ts_label(name), 20)
        let faces = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 4)
        gtk_widget_set_halign(faces, GTK_ALIGN_CENTER)
        faceRows[summary.id] = faces
        let content = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8, [picture, name, faces])
        let button = gtk_button_new()!
        gtk_button_set_child(ts_button(button), content)
        UI.style(button, ["card"])
        UI.accessibleLabel(button, summary.name)
        let id = summary.id
        Signal.connect(UI.raw(button), "clicked") { [weak self] in self?.open(id) }
        // Under the card, buttons of their own so the card still opens the
        // sketch: the teacher's words (stars and a speech bubble) and the
        // bin for what this child may throw away.
        var under: [Widget] = []
        if let feedback = feedback(on: id) {
            let said = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
            gtk_widget_set_halign(said, GTK_ALIGN_CENTER)
            if let stars = feedback.stars { UI.append(said, FeedbackScreen.stars(stars, size: "small")) }
            if !feedback.comment.isEmpty {
                let bubble = gtk_image_new_from_icon_name("user-available-symbolic")!
                gtk_image_set_pixel_size(ts_image(bubble), 28)
                UI.append(said, bubble)
            }
            let feedbackButton = gtk_button_new()!
            gtk_button_set_child(ts_button(feedbackButton), said)
            UI.style(feedbackButton, ["choice", "feedback-button"])
            UI.accessibleLabel(feedbackButton, String(format: `_`("What your teacher says about %@"), summary.name))
            Signal.connect(UI.raw(feedbackButton), "clicked") { [weak self] in self?.showFeedback(id, feedback) }
            under.append(feedbackButton)
        }
        if OwnWork.mayThrowAway(summary, signIn: who.signIn, rememberedServer: who.rememberedServer,
                                         now: Date()) {
            let bin = UI.iconButton("user-trash-symbolic", tooltip: String(format: `_`("Throw %@ away"), summary.name),
                                    classes: ["choice", "bin-button"]) { [weak self] in self?.askThrowAway(summary) }
            gtk_widget_set_tooltip_text(bin, nil)
            gtk_widget_set_size_request(bin, 56, 56)
            under.append(bin)
        }
        guard !under.isEmpty else { return button }
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, under)
        gtk_widget_set_halign(row, GTK_ALIGN_CENTER)
        return UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [button, row])
    }

    /// A child's slip is easy: the bin asks once, and the teacher can bring
    /// the sketch back from "Deleted" for 30 days.
    private func askThrowAway(_ summary: SketchSummary) {
        Alert.show(parent: nav?.window, title: String(format: `_`("Throw “%@” away?"), summary.name),
                   message: `_`("Your teacher can bring it back."),
                   choices: [.init(`_`("Throw away"), classes: ["destructive-action"]) { [weak self] in self?.throwAway(summary) },
                             .init(`_`("Keep it"), classes: ["suggested-action"])])
    }

    private func throwAway(_ summary: SketchSummary) {
        do {
            try library.throwAway(summary.id)
        } catch {
            nav?.showError(`_`("This sketch could not be thrown away."), error)
            return
        }
        FileHandle.standardError.write(Data("gallery: thrown away \(summary.id.lowercasedText)\n".utf8))
        // Until the gallery is read again, its cards (that one too) take no taps.
        if let flow { gtk_widget_set_sensitive(flow, 0) }
        nav?.showGallery()
    }

    /// The teacher's grade and words on a sketch for whoever looks here.
    private func feedback(on id: UUID) -> PupilFeedback? {
        guard let viewer = PupilFeedback.Viewer.current(signIn: who.signIn, profileName: who.profile.name,
                                                        now: Date()),
              let grades = try? grades.records(id)
        else { return nil }
        return PupilFeedback.shown(to: viewer, from: grades)
    }

    private func showFeedback(_ id: UUID, _ feedback: PupilFeedback) {
        do {
            try nav?.showFeedback(on: library.load(id), feedback)
        } catch {
            nav?.showError(`_`("This sketch could not be opened."), error)
        }
    }

    private func open(_ id: UUID) {
        do {
            try nav?.open(library.load(id))
        } catch {
            nav?.showError(`_`("This sketch could not be opened."), error)
        }
    }

    private func importFile() {
        FileChooser.ask(parent: nav?.window, title: `_`("Open a sketch file"), save: false, acceptLabel: `_`("Open"),
                        filters: [.init(name: `_`("Sketches (.xopp, .teamsketch)"), patterns: ["*.xopp", "*.teamsketch"])]) {
            [weak nav] path in nav?.openFile(path)
        }
    }
}
