import Foundation

/// Who may take a stroke off the sheet. The same rule runs on the pupil's
/// canvas (so a pen never offers what will be refused) and on the host of a
/// LAN session (which decides for everyone).
///
/// - The eraser, when the class allows it, takes any stroke, or only the
///   eraser's own when the teacher limited it so (pupils got upset when
///   others rubbed out their drawing).
/// - Undo, when allowed, takes back the pupil's own steps, newest first
///   (a line drawn, or a rub of the eraser, which it undoes by drawing the
///   lines again): so it may take any of the pupil's own lines, never
///   another's. It works even with the eraser off, because taking back
///   one's own slip harms nobody.
public struct EraseRule: Hashable, Sendable {
    public var eraserAllowed: Bool
    public var ownStrokesOnly: Bool
    public var undoAllowed: Bool

    public init(eraserAllowed: Bool = true, ownStrokesOnly: Bool = false, undoAllowed: Bool = false) {
        self.eraserAllowed = eraserAllowed
        self.ownStrokesOnly = ownStrokesOnly
        self.undoAllowed = undoAllowed
    }

    /// Whether the eraser tool takes this stroke for `name`.
    public func eraserTakes(_ stroke: Stroke, by name: String) -> Bool {
        eraserAllowed && (!ownStrokesOnly || stroke.author == name)
    }

    /// Whether an erase of `strokeID` by `name` is allowed: by the eraser, or
    /// as an undo of one of `name`'s own strokes. False for a stroke not on
    /// the sheet.
    public func allows(erasing strokeID: UUID, by name: String, in document: SketchDocument) -> Bool {
        guard let stroke = document.strokes.last(where: { $0.id == strokeID }) else { return false }
        if eraserTakes(stroke, by: name) { return true }
        return undoAllowed && stroke.author == name
    }

    /// The stroke an undo by `name` takes back when it remembers no step
    /// (a sketch opened again): their latest still on the sheet.
    public static func lastOwnStroke(of name: String, in document: SketchDocument) -> Stroke? {
        document.strokes.last(where: { $0.author == name })
    }
}
