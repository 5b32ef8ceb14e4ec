import LearnModel

/// What the game board shows, independent of the game's rules: the screen
/// maps the game state onto it after every change.
struct BoardModel: Equatable {
    struct Slot: Equatable {
        /// The letter shown in the slot: given from the start, or placed.
        var shown: String?
    }

    struct Tile: Equatable {
        var id: Int
        var grapheme: String
    }

    struct Teammate: Equatable {
        var id: UInt32
        var name: String
        var finished: Bool
    }

    var slots: [Slot] = []
    var hand: [Tile] = []
    /// In the order of the edges they sit at: left, right, top.
    var teammates: [Teammate] = []
    var finished = false
}

/// Where everything sits on a board of a given size. Drop zones are much
/// larger than what is drawn: children of six drag imprecisely.
struct BoardLayout {
    let width: Double
    let height: Double
    let model: BoardModel

    var slotSize: Double {
        let n = Double(max(model.slots.count, 1))
        return min(96, (width - 2 * sideMargin) / n - 10)
    }

    var tileSize: Double {
        let n = Double(max(model.hand.count, 1))
        return min(84, (width - 2 * sideMargin) / n - 14)
    }

    /// Room for the trains at the left and right edges.
    var sideMargin: Double { model.teammates.isEmpty ? 24 : 170 }

    func slotRect(_ i: Int) -> Rect {
        let s = slotSize, gap = 10.0
        let total = Double(model.slots.count) * (s + gap) - gap
        return Rect(x: (width - total) / 2 + Double(i) * (s + gap), y: height * 0.36 - s / 2, width: s, height: s)
    }

    func tileRect(_ i: Int) -> Rect {
        let s = tileSize, gap = 14.0
        let total = Double(model.hand.count) * (s + gap) - gap
        return Rect(x: (width - total) / 2 + Double(i) * (s + gap), y: height * 0.74 - s / 2, width: s, height: s)
    }

    /// Left, right and top edge, in that order.
    func trainRect(_ i: Int) -> Rect {
        let w = 150.0, h = 112.0
        switch i {
        case 0: return Rect(x: 10, y: height * 0.5 - h / 2, width: w, height: h)
        case 1: return Rect(x: width - w - 10, y: height * 0.5 - h / 2, width: w, height: h)
        default: return Rect(x: width / 2 - w / 2, y: 8, width: w, height: h)
        }
    }

    func tile(at p: Point) -> Int? {
        model.hand.indices.first { tileRect($0).insetBy(-6).contains(p) }
    }

    func train(at p: Point) -> Int? {
        model.teammates.indices.first { trainRect($0).insetBy(-30).contains(p) }
    }

    /// The empty slot a tile dropped at `p` is meant for: the nearest one
    /// whose widened zone contains the drop point.
    func slot(at p: Point) -> Int? {
        let zone = slotSize * 0.6
        return model.slots.indices
            .filter { model.slots[$0].shown == nil && slotRect($0).insetBy(-zone).contains(p) }
            .min { slotRect($0).center.distance(to: p) < slotRect($1).center.distance(to: p) }
    }
}

extension Rect {
    var center: Point { Point(x + width / 2, y + height / 2) }
    func contains(_ p: Point) -> Bool { p.x >= x && p.x <= maxX && p.y >= y && p.y <= maxY }
}
