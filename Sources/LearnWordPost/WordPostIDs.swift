/// A player in a word-post game: the session layer's `MemberIndex`, so a
/// network action needs no mapping. A solo game uses player 0.
public typealias PlayerID = UInt32

/// A letter tile, unique within one game (never reused across rounds), so a
/// late or repeated network action can never move the wrong tile.
public typealias LetterID = UInt32
