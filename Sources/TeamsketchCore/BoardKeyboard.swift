/// Buchstaben Post without a mouse or a finger: the arrow keys move a
/// highlight over the letters in the hand, Enter (or Space) picks the
/// highlighted letter up, the arrows then move it over the empty slots (up
/// and down switch to the teammates' trains) and Enter puts it down there.
/// Typing a letter picks that letter up at once; Escape puts it back.
/// Only the decisions live here; the board draws the highlight and the
/// lifted letter, and hands a put-down letter to the game like a drop.
public struct BoardKeyboard: Equatable, Sendable {
    /// What the board holds, as far as the keyboard is concerned.
    public struct Board: Equatable, Sendable {
        public struct Tile: Equatable, Sendable {
            public var id: Int
            public var grapheme: String
            public init(id: Int, grapheme: String) { self.id = id; self.grapheme = grapheme }
        }

        public var hand: [Tile]
        /// Indices of the word's slots that are still empty.
        public var emptySlots: [Int]
        public var teammates: Int

        public init(hand: [Tile], emptySlots: [Int], teammates: Int) {
            self.hand = hand; self.emptySlots = emptySlots; self.teammates = teammates
        }
    }

    public enum Focus: Equatable, Sendable {
        /// A letter in the hand, by its place in the hand.
        case tile(Int)
        /// A slot of the word, by its index in the word.
        case slot(Int)
        /// A teammate's train, by its place on the board.
        case teammate(Int)
    }

    public enum Key: Equatable, Sendable {
        case left, right, up, down, activate, cancel
        case typed(String)
    }

    public enum Outcome: Equatable, Sendable {
        /// Nothing for the game; the board may still have to be redrawn.
        case none
        /// The held letter is put down in this slot of the word.
        case place(tile: Int, slot: Int)
        /// The held letter goes to the teammate at this place on the board.
        case send(tile: Int, teammate: Int)
    }

    /// Nothing is highlighted until the first key: a child using the mouse
    /// never sees a stray frame.
    public private(set) var focus: Focus?
    /// The id of the letter picked up, if any.
    public private(set) var held: Int?

    public init() {}

    public mutating func press(_ key: Key, on board: Board) -> Outcome {
        settle(on: board)
        if case .typed(let text) = key { return pick(matching: text, on: board) }
        guard let focus else {
            if key != .cancel, !board.hand.isEmpty { self.focus = .tile(0) }
            return .none
        }
        switch (key, focus) {
        case (.left, _): self.focus = step(focus, by: -1, on: board)
        case (.right, _): self.focus = step(focus, by: 1, on: board)
        case (.up, .slot), (.down, .slot):
            if held != nil, board.teammates > 0 { self.focus = .teammate(0) }
        case (.up, .teammate), (.down, .teammate):
            if let first = board.emptySlots.first { self.focus = .slot(first) }
        case (.activate, .tile(let i)):
            pickUp(board.hand[i].id, on: board)
        case (.activate, .slot(let s)):
            if let tile = held { putDown(tile, on: board); return .place(tile: tile, slot: s) }
        case (.activate, .teammate(let t)):
            if let tile = held { putDown(tile, on: board); return .send(tile: tile, teammate: t) }
        case (.cancel, _):
            if let tile = held { putDown(tile, on: board) }
        default:
            break
        }
        return .none
    }

    /// The board changed under the keyboard (a letter arrived, a word was
    /// dealt): the highlight stays on something that is still there.
    public mutating func settle(on board: Board) {
        if let tile = held, !board.hand.contains(where: { $0.id == tile }) { held = nil }
        switch focus {
        case .tile(let i)?:
            focus = board.hand.isEmpty ? nil : .tile(min(i, board.hand.count - 1))
        case .slot(let s)? where held == nil || !board.emptySlots.contains(s):
            focus = held == nil ? homeFocus(on: board) : board.emptySlots.first.map(Focus.slot) ?? homeFocus(on: board)
        case .teammate(let t)? where held == nil || t >= board.teammates:
            focus = homeFocus(on: board)
        default:
            break
        }
    }

    private mutating func pick(matching text: String, on board: Board) -> Outcome {
        let wanted = text.lowercased()
        // A second press of the same letter takes the next tile showing it.
        let start = held.flatMap { id in board.hand.firstIndex { $0.id == id } }.map { $0 + 1 } ?? 0
        let order = Array(board.hand.indices[start...]) + Array(board.hand.indices[..<start])
        guard let i = order.first(where: { board.hand[$0].grapheme.lowercased() == wanted }) else { return .none }
        pickUp(board.hand[i].id, on: board)
        return .none
    }

    private mutating func pickUp(_ tile: Int, on board: Board) {
        held = tile
        if let slot = board.emptySlots.first {
            focus = .slot(slot)
        } else if board.teammates > 0 {
            focus = .teammate(0)
        }
    }

    private mutating func putDown(_ tile: Int, on board: Board) {
        held = nil
        focus = board.hand.firstIndex { $0.id == tile }.map(Focus.tile) ?? homeFocus(on: board)
    }

    private func homeFocus(on board: Board) -> Focus? { board.hand.isEmpty ? nil : .tile(0) }

    private func step(_ focus: Focus, by delta: Int, on board: Board) -> Focus {
        switch focus {
        case .tile(let i):
            return .tile(max(0, min(board.hand.count - 1, i + delta)))
        case .slot(let s):
            guard let at = board.emptySlots.firstIndex(of: s) else { return focus }
            return .slot(board.emptySlots[max(0, min(board.emptySlots.count - 1, at + delta))])
        case .teammate(let t):
            return .teammate(max(0, min(board.teammates - 1, t + delta)))
        }
    }
}
