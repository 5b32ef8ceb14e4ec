import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// The sketch in the editor: a new one, one from the store, a file being
/// imported, a shared one once its session starts; and what the person is
/// told about it (a file's parts left out, a copy kept because the sketch
/// was deleted elsewhere). One sketch is open at a time; opening another
/// closes it.
@MainActor
final class SketchDesk {
    private unowned let app: TeamsketchApp
    private var canvas: CanvasScreen?
    /// Kept copies already told of, each once.
    private var toldCopies = Set<UUID>()
    /// The file being read, if any; a newer open or going home replaces it.
    private var pendingOpening: SketchFileOpening?

    init(app: TeamsketchApp) { self.app = app }

    func start(_ meta: SketchMeta) {
        let saver = app.storeClient.map { SketchSaver(store: $0, sketch: meta) }
        if let failure = saver?.ensureStored() {
            return app.showError(`_`("The sketch could not be created."), failure)
        }
        open(SketchDocument(meta: meta), saver: saver)
    }

    /// A sketch just loaded from the store: all its ops are stored.
    func open(_ doc: SketchDocument) {
        open(doc, saver: app.storeClient.map { SketchSaver(store: $0, sketch: doc.meta, storedOps: doc.ops.count) })
    }

    private func open(_ doc: SketchDocument, saver: SketchSaver?) {
        leave()
        let screen = canvasScreen(doc, saver: saver)
        canvas = screen
        app.replace(.canvas, with: screen.widget, owner: screen)
    }

    /// The shared canvas once the host starts (for members and the host).
    func openShared(_ session: SketchSession, meta: SketchMeta) {
        // Stop looking for sessions; a host keeps announcing so latecomers
        // can still find it, until its session ends.
        app.discovery.stop()
        leave()
        // The session stores what it applies; the screen keeps the thumbnail.
        let screen = canvasScreen(SketchDocument(meta: meta), saver: session.saver, session: session)
        session.canvas = screen
        canvas = screen
        app.replace(.canvas, with: screen.widget, owner: screen)
    }

    private func canvasScreen(_ doc: SketchDocument, saver: SketchSaver?, session: SketchSession? = nil) -> CanvasScreen {
        CanvasScreen(nav: app, files: app.files, settings: app.preferences.settings,
                     author: app.preferences.profile.name, document: doc, saver: saver, session: session) {
            [weak self] kept in self?.tellKeptCopies([kept])
        }
    }

    /// Imports a .xopp or .teamsketch file into the store and opens it. The
    /// file is read away from the main thread; a read that takes a moment
    /// shows its progress and a Stop button. The sketch is on screen first;
    /// storing thousands of strokes runs beside it.
    func openFile(_ path: String) {
        let fileName = (path as NSString).lastPathComponent
        let opening = SketchFileOpening(path: path)
        var screen: OpeningScreen?
        Task { @MainActor in
            try? await Task.sleep(for: SketchFileOpening.progressDelay)
            guard !opening.isCancelled, screen == nil, self.pendingOpening === opening else { return }
            let s = OpeningScreen(fileName: fileName) { [weak app] in
                opening.cancel()
                app?.showHome()
            }
            if let step = opening.lastStep { s.show(step) }
            screen = s
            self.app.replace(.opening, with: s.widget, owner: s)
        }
        // A newer file replaces one still being read: its read stops.
        pendingOpening?.cancel()
        pendingOpening = opening
        Task { @MainActor in
            let outcome = await opening.run { step in screen?.show(step) }
            guard pendingOpening === opening else { return }
            pendingOpening = nil
            switch outcome {
            case .cancelled:
                return
            case .failed(let error):
                if screen != nil { app.showHome() }
                app.showError(String(format: `_`("%@ could not be opened."), fileName), error)
            case .opened(let document, let leftOut):
                guard let storeClient = app.storeClient else {
                    open(document, saver: nil)
                    return reportLeftOut(leftOut, fileName: fileName)
                }
                let (doc, saver) = SketchSaver.forImport(document, store: storeClient)
                open(doc, saver: saver)
                reportLeftOut(leftOut, fileName: fileName)
                if let failure = await saver.storeImported() {
                    app.showError(String(format: `_`("%@ could not be saved."), fileName), failure)
                }
            }
        }
    }

    /// A file is being read to be opened.
    var isOpening: Bool { pendingOpening != nil }

    /// Going home stops a file still being read.
    func stopOpening() {
        pendingOpening?.cancel()
        pendingOpening = nil
    }

    /// An imported file held what the sketch cannot (texts, images, other
    /// pages…): the person is told what, once the sketch is on screen.
    private func reportLeftOut(_ leftOut: ImportLeftOut, fileName: String) {
        guard let sentence = ImportLeftOutText.sentence(leftOut) else { return }
        Alert.show(parent: app.window, title: String(format: `_`("Not everything in %@ could be imported."), fileName),
                   message: sentence)
    }

    /// A sketch was deleted on another device while this one had drawn in
    /// it: the drawing is kept, and the person is told under which name.
    func tellKeptCopies(_ kept: [KeptCopy]) {
        for copy in kept { canvas?.follow(copy) }
        // The open editor may have told of a copy before the sync's news
        // arrived; each copy is told once.
        let kept = kept.filter { toldCopies.insert($0.copyID).inserted }
        guard !kept.isEmpty else { return }
        let lines = kept.map { String(format: `_`("“%@” was deleted on another device. What was drawn here is kept as “%@”."),
                                      $0.original, $0.copy) }
        Alert.show(parent: app.window, title: `_`("Your drawing is kept"), message: lines.joined(separator: "\n"))
    }

    /// Before the window closes: the open sketch's thumbnail is kept.
    func persistThumbnail() { canvas?.persistThumbnail() }

    func leave() {
        canvas?.close()
        canvas = nil
    }
}
