import Foundation
import LearnModel

/// Which sketches a signed-in pupil sees under "Open" on a shared laptop:
/// the ones they drew in (alone or with a team) and empty ones (just
/// started, nobody's yet). Other children's work stays out of reach.
public enum OwnWork {
    public static func includes(_ document: SketchDocument, pupil: String) -> Bool {
        var anyone = false
        for op in document.ops {
            guard case .addStroke(let stroke) = op else { continue }
            if stroke.author == pupil { return true }
            anyone = true
        }
        return !anyone
    }
}
