import Testing
@testable import TeamsketchCore

/// Keys pressed on a Buchstaben Post board and what the game is asked to do.
@Suite struct BoardKeyboardTests {
    /// A hand of H, A, U (ids 10, 11, 12) for a word whose slots 1 and 3 are
    /// empty, with two teammates.
    let board = BoardKeyboard.Board(
        hand: [.init(id: 10, grapheme: "H"), .init(id: 11, grapheme: "A"), .init(id: 12, grapheme: "U")],
        emptySlots: [1, 3], teammates: 2)

    func press(_ keys: [BoardKeyboard.Key], on board: BoardKeyboard.Board? = nil,
               from start: BoardKeyboard = BoardKeyboard()) -> (BoardKeyboard, [BoardKeyboard.Outcome]) {
        var k = start
        let outcomes = keys.map { k.press($0, on: board ?? self.board) }
        return (k, outcomes)
    }

    @Test func nothingIsHighlightedUntilTheFirstKey() {
        #expect(BoardKeyboard().focus == nil)
        let (k, outcomes) = press([.right])
        #expect(k.focus == .tile(0))
        #expect(outcomes == [.none])
    }

    @Test func arrowsPickEnterLiftsAndPutsDownInTheChosenEmptySlot() {
        let (k, outcomes) = press([.right, .right, .activate, .right, .activate])
        // First key shows the highlight on H; right moves to A; Enter lifts
        // A over the first empty slot (1); right moves it to slot 3.
        #expect(outcomes.last == .place(tile: 11, slot: 3))
        #expect(k.held == nil)
        #expect(k.focus == .tile(1), "the highlight goes back to where the letter was")
    }

    @Test func arrowsOverSlotsSkipFilledOnesAndStopAtTheEnds() {
        let (k, _) = press([.down, .activate, .left, .left])
        #expect(k.focus == .slot(1))
        let (k2, _) = press([.right, .right, .right], from: k)
        #expect(k2.focus == .slot(3))
    }

    @Test func typingALetterLiftsItAtOnceWhateverItsCase() {
        let (k, outcomes) = press([.typed("u"), .activate])
        #expect(outcomes == [.none, .place(tile: 12, slot: 1)])
        #expect(k.held == nil)
    }

    @Test func typingALetterNotInTheHandDoesNothing() {
        let (k, outcomes) = press([.typed("z")])
        #expect(outcomes == [.none])
        #expect(k.held == nil && k.focus == nil)
    }

    @Test func typingTheSameLetterAgainTakesTheNextTileShowingIt() {
        let two = BoardKeyboard.Board(hand: [.init(id: 1, grapheme: "E"), .init(id: 2, grapheme: "N"),
                                             .init(id: 3, grapheme: "E")], emptySlots: [0], teammates: 0)
        let (k, _) = press([.typed("e")], on: two)
        #expect(k.held == 1)
        let (k2, _) = press([.typed("e")], on: two, from: k)
        #expect(k2.held == 3)
        let (k3, _) = press([.typed("e")], on: two, from: k2)
        #expect(k3.held == 1, "after the last one it starts again at the first")
    }

    @Test func upAndDownMoveTheLiftedLetterToTheTrainsAndSendIt() {
        let (_, outcomes) = press([.typed("h"), .up, .right, .activate])
        #expect(outcomes.last == .send(tile: 10, teammate: 1))
        let (back, _) = press([.typed("h"), .down, .down])
        #expect(back.focus == .slot(1), "down again comes back to the first empty slot")
    }

    @Test func withoutTeammatesUpStaysOnTheSlots() {
        let alone = BoardKeyboard.Board(hand: board.hand, emptySlots: [1, 3], teammates: 0)
        let (k, _) = press([.typed("h"), .up], on: alone)
        #expect(k.focus == .slot(1))
    }

    @Test func escapePutsTheLetterBackWhereItWas() {
        let (k, outcomes) = press([.typed("u"), .right, .cancel])
        #expect(outcomes.allSatisfy { $0 == .none })
        #expect(k.held == nil)
        #expect(k.focus == .tile(2))
    }

    @Test func enterFirstLiftsTheHighlightedLetterAndOnlyThenPlacesIt() {
        var k = BoardKeyboard()
        _ = k.press(.typed("a"), on: board)
        _ = k.press(.cancel, on: board)
        #expect(k.focus == .tile(1) && k.held == nil)
        #expect(k.press(.activate, on: board) == .none)
        #expect(k.held == 11)
        #expect(k.press(.activate, on: board) == .place(tile: 11, slot: 1))
    }

    @Test func aLetterThatLeavesTheHandIsNoLongerHeld() {
        var k = BoardKeyboard()
        _ = k.press(.typed("a"), on: board)
        let without = BoardKeyboard.Board(hand: [board.hand[0], board.hand[2]], emptySlots: [1, 3], teammates: 2)
        k.settle(on: without)
        #expect(k.held == nil)
        #expect(k.focus == .tile(0))
        #expect(k.press(.activate, on: without) == .none)
        #expect(k.held == 10)
    }

    @Test func theHighlightFollowsAShrinkingHandAndAnEmptyOne() {
        var k = BoardKeyboard()
        _ = k.press(.right, on: board)
        _ = k.press(.right, on: board)
        _ = k.press(.right, on: board)
        #expect(k.focus == .tile(2))
        let smaller = BoardKeyboard.Board(hand: [board.hand[0]], emptySlots: [1], teammates: 0)
        k.settle(on: smaller)
        #expect(k.focus == .tile(0))
        let empty = BoardKeyboard.Board(hand: [], emptySlots: [], teammates: 0)
        k.settle(on: empty)
        #expect(k.focus == nil)
        #expect(k.press(.activate, on: empty) == .none)
    }

    @Test func aFilledSlotUnderTheLiftedLetterMovesItToTheNextEmptyOne() {
        var k = BoardKeyboard()
        _ = k.press(.typed("h"), on: board)
        #expect(k.focus == .slot(1))
        let filled = BoardKeyboard.Board(hand: board.hand, emptySlots: [3], teammates: 2)
        k.settle(on: filled)
        #expect(k.focus == .slot(3))
        #expect(k.held == 10)
    }
}
