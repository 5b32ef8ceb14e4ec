import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// One sketch under the teacher's eye: its replay with a timeline (play,
/// pause, speed, scrub; coloured or filtered by pupil), who drew how much,
/// where pupils drew over or erased each other's lines (each jumps to that
/// moment), the team's grade and comment and each pupil's own beside their
/// share (`PupilGrading`), saved to the store and synced.
@MainActor
final class SketchReviewScreen {
    let widget: Widget
    private weak var nav: (any Navigator)?
    private let document: SketchDocument
    private var player: ReplayPlayer
    private let replay: ReplayView
    private let timeline: Widget
    private let playButton: Widget
    private let clock: Widget
    private let colors: [String: RGBA]
    private var colourByPupil = false
    private var onlyPupil: String?
    private var pupilsInMenu: [String] = []
    private var ticking = false
    private var lastTick = ContinuousClock.now
    private var settingScale = false
    private var gradeButtons: [Int: Widget] = [:]
    /// Each pupil's grade, by the name they drew under.
    private var pupilGrades: [String: GradeEditor] = [:]
    private var grade: Int?
    private let comment: Widget
    private let saved: Widget
    private var closed = false
    private let book: GradeBook
    private let pupilGrading: PupilGrading

    /// `pupilGrading`: on this sketch.
    init(document: SketchDocument, book: GradeBook, pupilGrading: PupilGrading, nav: any Navigator) {
        self.nav = nav
        self.document = document
        self.book = book
        self.pupilGrading = pupilGrading
        player = ReplayPlayer(timeline: ReplayTimeline(document: document))
        let stats = ContributionStats(document: document)
        colors = AuthorColors.assign(stats.authors.map(\.author))
        replay = ReplayView(meta: document.meta)
        timeline = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 0.001)!
        playButton = gtk_button_new_from_icon_name("media-playback-start-symbolic")!
        clock = UI.label("", classes: ["hint"])
        gtk_label_set_wrap(ts_label(clock), 0)
        comment = gtk_text_view_new()!
        saved = UI.label("", classes: ["hint"])
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 0)

        UI.append(widget, topBar())
        let left = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8, [replay.widget, controls(pupils: stats.authors.map(\.author))])
        UI.expand(left)
        gtk_widget_set_margin_start(left, 12)
        gtk_widget_set_margin_top(left, 12)
        gtk_widget_set_margin_bottom(left, 12)
        let side = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 16,
                          [contribution(stats), conflicts(ConflictSignals(document: document)), grading()])
        gtk_widget_set_margin_start(side, 12)
        gtk_widget_set_margin_end(side, 12)
        gtk_widget_set_margin_top(side, 12)
        let sideScroller = UI.scrolled(side)
        gtk_widget_set_size_request(sideScroller, 400, -1)
        gtk_widget_set_vexpand(sideScroller, 1)
        // The replay takes the room; the panel keeps its width.
        gtk_widget_set_hexpand(sideScroller, 0)
        UI.append(widget, UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0, [left, sideScroller]))
        player.scrub(to: 1)
        show()
        loadGrade()
        pupilGrading.load(pupilGrades) { [weak self] in self?.closed == false }
    }

    func close() {
        closed = true
        player.pause()
    }

    // MARK: bars

    private func topBar() -> Widget {
        let bar = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["toolbar"])
        UI.append(bar, UI.iconButton("go-previous-symbolic", tooltip: `_`("Back to the sketches"), classes: ["tool"]) {
            [weak self] in self?.nav?.showTeacherSketches()
        })
        let f = FormatLocale.dateFormatter(date: .medium, time: .short)
        let title = UI.label(document.meta.name + " · " + f.string(from: document.meta.createdAt), classes: ["sketch-title"])
        gtk_label_set_wrap(ts_label(title), 0)
        gtk_label_set_ellipsize(ts_label(title), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(title, 1)
        gtk_label_set_xalign(ts_label(title), 0)
        UI.append(bar, title)
        UI.append(bar, UI.iconButton("zoom-out-symbolic", tooltip: `_`("Zoom out"), classes: ["tool"]) {
            [weak self] in self?.replay.zoom(by: 1 / 1.5)
        })
        UI.append(bar, UI.iconButton("zoom-in-symbolic", tooltip: `_`("Zoom in"), classes: ["tool"]) {
            [weak self] in self?.replay.zoom(by: 1.5)
        })
        UI.append(bar, UI.iconButton("document-save-as-symbolic", tooltip: `_`("Export as PDF with grade and comment"),
                                     classes: ["tool"]) { [weak self] in self?.exportPDF() })
        return bar
    }

    private func controls(pupils: [String]) -> Widget {
        UI.style(playButton, ["tool"])
        UI.accessibleLabel(playButton, `_`("Play"))
        gtk_widget_set_tooltip_text(playButton, `_`("Play"))
        Signal.connect(UI.raw(playButton), "clicked") { [weak self] in self?.togglePlay() }
        gtk_scale_set_draw_value(ts_scale(timeline), 0)
        gtk_widget_set_hexpand(timeline, 1)
        UI.accessibleLabel(timeline, `_`("Timeline"))
        Signal.connect(UI.raw(timeline), "value-changed") { [weak self] in
            guard let self, !self.settingScale else { return }
            self.player.pause()
            self.player.scrub(to: gtk_range_get_value(ts_range(self.timeline)))
            self.show()
        }
        let speeds = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0, classes: ["linked"])
        var first: Widget?
        for speed in ReplayPlayer.speeds {
            let b = gtk_toggle_button_new_with_label(String(format: "%g×", speed))!
            if let first { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(first)) } else {
                first = b
                gtk_toggle_button_set_active(ts_toggle(b), 1)
            }
            UI.accessibleLabel(b, String(format: `_`("Speed %g times"), speed))
            Signal.connect(UI.raw(b), "toggled") { [weak self] in
                if gtk_toggle_button_get_active(ts_toggle(b)) != 0 { self?.player.speed = speed }
            }
            UI.append(speeds, b)
        }
        let colour = gtk_check_button_new_with_label(`_`("Colour by pupil"))!
        Signal.connect(UI.raw(colour), "toggled") { [weak self] in
            guard let self else { return }
            self.colourByPupil = gtk_check_button_get_active(ts_check(colour)) != 0
            self.show()
        }
        pupilsInMenu = pupils.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        let menu = gtk_drop_down_new_from_strings(nil)!
        let list = gtk_string_list_new(nil)!
        for name in [`_`("All pupils")] + pupilsInMenu { gtk_string_list_append(list, name) }
        gtk_drop_down_set_model(ts_drop_down(menu), ts_list_model(gp(list)))
        g_object_unref(UnsafeMutableRawPointer(list))
        UI.accessibleLabel(menu, `_`("Show the lines of"))
        Signal.connectNotify(UI.raw(menu), property: "selected") { [weak self] in
            guard let self else { return }
            let i = Int(gtk_drop_down_get_selected(ts_drop_down(menu)))
            self.onlyPupil = i > 0 && i <= self.pupilsInMenu.count ? self.pupilsInMenu[i - 1] : nil
            self.show()
        }
        let row1 = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, [playButton, timeline, clock])
        let row2 = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [speeds, colour, menu])
        return UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [row1, row2])
    }

    // MARK: playing

    private func togglePlay() {
        if player.isPlaying {
            player.pause()
        } else {
            player.play()
            startTicking()
        }
        show()
    }

    private func startTicking() {
        guard !ticking else { return }
        ticking = true
        lastTick = .now
        runEvery(ms: 33) { [weak self] in
            guard let self, !self.closed, self.player.isPlaying else {
                self?.ticking = false
                self?.show()
                return false
            }
            let now = ContinuousClock.now
            self.player.tick(Double((now - self.lastTick) / .milliseconds(1)) / 1000)
            self.lastTick = now
            self.show()
            return true
        }
    }

    private func show() {
        let frame = player.frame(authors: onlyPupil.map { [$0] })
        replay.strokes = colourByPupil ? AuthorColors.recolor(frame.strokes, with: colors) : frame.strokes
        settingScale = true
        gtk_range_set_value(ts_range(timeline), player.fraction)
        settingScale = false
        let icon = player.isPlaying ? "media-playback-pause-symbolic" : "media-playback-start-symbolic"
        gtk_button_set_icon_name(ts_button(playButton), icon)
        let title = player.isPlaying ? `_`("Pause") : `_`("Play")
        UI.accessibleLabel(playButton, title)
        gtk_widget_set_tooltip_text(playButton, title)
        UI.setText(clock, Self.minutes(player.position) + " / " + Self.minutes(player.length))
    }

    static func minutes(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded(.down))
        return String(format: "%d:%02d", s / 60, s % 60)
    }

    // MARK: side panel

    private func heading(_ text: String) -> Widget {
        let l = UI.label(text, classes: ["form-label"])
        gtk_label_set_xalign(ts_label(l), 0)
        return l
    }

    private func hint(_ text: String) -> Widget {
        let l = UI.label(text, classes: ["hint"])
        gtk_label_set_xalign(ts_label(l), 0)
        return l
    }

    private func contribution(_ stats: ContributionStats) -> Widget {
        let box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8, [heading(`_`("Who drew"))])
        if stats.authors.isEmpty { UI.append(box, hint(`_`("Nobody has drawn here yet."))) }
        for a in stats.authors {
            let swatch = gtk_drawing_area_new()!
            gtk_widget_set_size_request(swatch, 16, 16)
            gtk_widget_set_valign(swatch, GTK_ALIGN_CENTER)
            let color = colors[a.author] ?? PenColor.black.rgba
            UI.setDrawFunc(swatch) { cr, w, h in
                cairo_set_source_rgb(cr, color.r, color.g, color.b)
                cairo_arc(cr, Double(w) / 2, Double(h) / 2, Double(min(w, h)) / 2, 0, 2 * Double.pi)
                cairo_fill(cr)
            }
            let name = UI.label(a.author, classes: ["card-name"])
            gtk_label_set_xalign(ts_label(name), 0)
            let share = stats.share(of: a.author)
            let bar = gtk_progress_bar_new()!
            gtk_progress_bar_set_fraction(ts_progress_bar(bar), share)
            gtk_widget_set_hexpand(bar, 1)
            gtk_widget_set_valign(bar, GTK_ALIGN_CENTER)
            UI.accessibleLabel(bar, String(format: `_`("%@'s share of the ink"), a.author))
            let numbers = String(format: _n("%d line · %d %% of the ink · %@ min drawing",
                                                "%d lines · %d %% of the ink · %@ min drawing", a.strokes),
                                 a.strokes, Int((share * 100).rounded()), String(format: "%.1f", a.activeSeconds / 60))
            let line = hint(numbers)
            UI.append(box, UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, [swatch, name, bar]))
            UI.append(box, line)
            UI.append(box, pupilGrade(a.author))
        }
        return box
    }

    /// The pupil's own grade, under their share: keys, then comment and Save.
    private func pupilGrade(_ author: String) -> Widget {
        let editor = GradeEditor(pupil: author) { [weak self, pupilGrading] grade, text, editor in
            pupilGrading.save(author, grade: grade, comment: text, editor: editor) { self?.closed == false }
        }
        pupilGrades[author] = editor
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, [editor.comment, editor.saveButton])
        let box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [editor.keys, row, editor.status, editor.history])
        gtk_widget_set_margin_start(box, 24)
        gtk_widget_set_margin_bottom(box, 8)
        return box
    }

    private func conflicts(_ signals: ConflictSignals) -> Widget {
        let box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [heading(`_`("Lines of others"))])
        if signals.events.isEmpty {
            UI.append(box, hint(`_`("Nobody erased or drew over someone else's lines.")))
            return box
        }
        let total = signals.events.count
        UI.append(box, hint(String(format: _n("%d time someone erased or drew over another pupil's lines.", "%d times someone erased or drew over another pupil's lines.", total), total)))
        // The first 200 are listed; a sketch with more is a conversation to
        // have anyway, and the counts above say how many.
        for event in signals.events.prefix(200) {
            let when = Self.minutes(player.replayTime(ofStep: event.stepIndex))
            let text = switch event.kind {
            case .erasedOther: String(format: `_`("%@ erased a line of %@"), event.actor, event.victim)
            case .drewOver: String(format: `_`("%@ drew over a line of %@"), event.actor, event.victim)
            case .clearedOthers: String(format: _n("%@ cleared %d line of %@", "%@ cleared %d lines of %@", event.strokeCount), event.actor, event.strokeCount, event.victim)
            }
            let button = UI.button(when + "  " + text, classes: ["flat", "conflict"]) { [weak self] in
                guard let self else { return }
                self.player.jump(toStep: event.stepIndex)
                self.show()
            }
            UI.append(box, button)
        }
        return box
    }

    private func grading() -> Widget {
        let box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8, [heading(`_`("Grade for the team"))])
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        for g in GradeRecord.grades {
            let b = gtk_toggle_button_new_with_label(String(g))!
            UI.style(b, ["grade"])
            UI.accessibleLabel(b, String(format: `_`("Grade %d"), g))
            Signal.connect(UI.raw(b), "clicked") { [weak self] in self?.choose(g) }
            gradeButtons[g] = b
            UI.append(row, b)
        }
        UI.append(box, row)
        gtk_text_view_set_wrap_mode(ts_text_view(comment), GTK_WRAP_WORD_CHAR)
        // A width of its own: measured without one, a loaded comment would be
        // wrapped at every letter.
        gtk_widget_set_size_request(comment, 320, -1)
        UI.style(comment, ["comment"])
        UI.accessibleLabel(comment, `_`("Comment"))
        UI.append(box, heading(`_`("Comment")))
        // A box of one height, scrolling inside: a text view may first be
        // measured before its width is known and ask for the panel's whole
        // height, which pushed "Save grade" below the window's edge.
        let commentBox = UI.scrolled(comment)
        gtk_scrolled_window_set_min_content_height(ts_scrolled(commentBox), 80)
        gtk_scrolled_window_set_max_content_height(ts_scrolled(commentBox), 80)
        UI.append(box, commentBox)
        let save = UI.button(`_`("Save grade"), classes: ["choice", "suggested-action"]) { [weak self] in self?.saveGrade() }
        UI.append(box, UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [save, saved]))
        return box
    }

    private func choose(_ g: Int) {
        // A second tap on the chosen grade takes it back (a comment alone).
        grade = grade == g ? nil : g
        for (n, b) in gradeButtons { gtk_toggle_button_set_active(ts_toggle(b), n == grade ? 1 : 0) }
    }

    private var commentText: String {
        get {
            let buffer = gtk_text_view_get_buffer(ts_text_view(comment))
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            guard let text = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
            defer { g_free(text) }
            return String(cString: text)
        }
        set {
            gtk_text_buffer_set_text(gtk_text_view_get_buffer(ts_text_view(comment)), newValue, -1)
        }
    }

    private func loadGrade() {
        guard let record = book.teamGrade(sketch: document.meta.id) else { return }
        grade = nil
        if let g = record.grade { choose(g) }
        commentText = record.comment
    }

    private func saveGrade() {
        do {
            switch try book.saveTeamGrade(sketch: document.meta.id, grade: grade, comment: commentText, now: Date()) {
            case .saved: UI.setText(saved, `_`("Saved."))
            case .commentTooLong(let max): UI.setText(saved, PupilGrading.tooLong(max))
            }
        } catch {
            nav?.showError(`_`("The grade could not be saved."), error)
        }
    }

    private func exportPDF() {
        guard let nav else { return }
        var caption: [String] = []
        if let grade { caption.append(String(format: `_`("Grade: %d"), grade)) }
        let text = commentText.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty { caption.append(text) }
        let doc = document
        FileChooser.ask(parent: nav.window, title: `_`("Export as PDF"), save: true, acceptLabel: `_`("Export"),
                        suggestedName: doc.meta.name + ".pdf",
                        filters: [.init(name: `_`("PDF document"), patterns: ["*.pdf"])]) { [weak nav] path in
            do {
                try FileBytes.write(try GradedPDF.data(doc, caption: caption), to: path)
            } catch {
                nav?.showError(`_`("The PDF could not be written."), error)
            }
        }
    }
}
