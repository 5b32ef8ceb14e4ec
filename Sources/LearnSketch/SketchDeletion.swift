import Foundation

/// How long a deleted sketch can be brought back. A deletion keeps every
/// op (a tombstone), on the school server and on each laptop, so a pupil's
/// slip or a classmate's mischief is undone whole; after the window the
/// deletion stands and the sketch is listed nowhere.
public enum SketchDeletion {
    public static let undoDays = 30
    public static let undoMilliseconds = Int64(undoDays) * 86_400_000

    /// Whether a sketch deleted at `deletedAt` can still be restored at
    /// `now` (both Unix ms). A deletion dated ahead of the clock counts as
    /// just made.
    public static func canRestore(deletedAt: Int64, now: Int64) -> Bool {
        deletedAt >= now || now - deletedAt <= undoMilliseconds
    }
}
