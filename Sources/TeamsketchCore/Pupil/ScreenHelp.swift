import LearnModel

/// What the "?" on a pupil's screen explains: one step for each thing the
/// child can do there, shown as the picture of the button it is about with
/// a few words that can be read aloud, for children who cannot read yet.
/// Only what the screen offers now: no eraser when the class turned it off,
/// no "clear for everyone" for a member, no pens for one who only watches.
public enum ScreenHelp {
    public enum Step: String, Sendable, Equatable, CaseIterable {
        case choosePen, chooseWidth, draw, undoOwn, eraseOwn, eraseAny, clearForEveryone, zoom, goHome
        case friendsJoin, letFriendsIn, startTogether
        case tapTheSign, typeTheCode, waitToBeLetIn
    }

    public static func sketch(_ permissions: SketchPermissions) -> [Step] {
        guard permissions.mayDraw else { return [.zoom, .goHome] }
        var steps: [Step] = [.choosePen, .chooseWidth, .draw]
        if permissions.mayUndo { steps.append(.undoOwn) }
        if permissions.mayErase { steps.append(permissions.erase.ownStrokesOnly ? .eraseOwn : .eraseAny) }
        if permissions.mayClear { steps.append(.clearForEveryone) }
        return steps + [.zoom, .goHome]
    }

    /// The host's lobby: who comes, letting them in, starting.
    public static let hostLobby: [Step] = [.friendsJoin, .letFriendsIn, .startTogether]

    /// Joining: the sign the host's screen shows, or its code, then waiting
    /// to be let in.
    public static let join: [Step] = [.tapTheSign, .typeTheCode, .waitToBeLetIn]
}
