import LearnModel

/// CSS names and hex colours for the felt pens, derived from the model.
struct PenColorCSS {
    let color: PenColor
    var name: String { "\(color)" }
    var hex: String {
        let c = color.rgba
        let v = [c.r, c.g, c.b].map { Int(($0 * 255).rounded()) }
        return "#" + v.map { String($0, radix: 16).leftPadded(2) }.joined()
    }
    static let all = PenColor.allCases.map(PenColorCSS.init)
}

private extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
