/// Colour with components in 0...1.
public struct RGBA: Hashable, Codable, Sendable {
    public var r: Double, g: Double, b: Double, a: Double
    public init(r: Double, g: Double, b: Double, a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(r: Double((hex >> 16) & 0xff) / 255, g: Double((hex >> 8) & 0xff) / 255,
                  b: Double(hex & 0xff) / 255, a: alpha)
    }
    public static let white = RGBA(r: 1, g: 1, b: 1)
}

/// The twelve felt pens in the order pupils know from the iPad original.
public enum PenColor: Int, CaseIterable, Codable, Sendable {
    case white, yellow, orange, red, pink, purple, lightGreen, darkGreen, lightBlue, darkBlue, brown, black

    public var rgba: RGBA {
        switch self {
        case .white: RGBA(hex: 0xFFFFFF)
        case .yellow: RGBA(hex: 0xFFE11A)
        case .orange: RGBA(hex: 0xFF8C1A)
        case .red: RGBA(hex: 0xE3201B)
        case .pink: RGBA(hex: 0xF46FB4)
        case .purple: RGBA(hex: 0x8E3FC4)
        case .lightGreen: RGBA(hex: 0x7ED321)
        case .darkGreen: RGBA(hex: 0x1E7B34)
        case .lightBlue: RGBA(hex: 0x4FC3F7)
        case .darkBlue: RGBA(hex: 0x1A3FA8)
        case .brown: RGBA(hex: 0x8B5A2B)
        case .black: RGBA(hex: 0x111111)
        }
    }
    /// English source string for gettext; the UI translates it.
    public var name: String {
        switch self {
        case .white: "White"
        case .yellow: "Yellow"
        case .orange: "Orange"
        case .red: "Red"
        case .pink: "Pink"
        case .purple: "Purple"
        case .lightGreen: "Light green"
        case .darkGreen: "Dark green"
        case .lightBlue: "Light blue"
        case .darkBlue: "Dark blue"
        case .brown: "Brown"
        case .black: "Black"
        }
    }
}

public enum PenWidth: Int, CaseIterable, Codable, Sendable {
    case fine, broad
    /// Line width in logical canvas units (canvas is 1600 × 1000).
    public var units: Double {
        switch self {
        case .fine: 6
        case .broad: 18
        }
    }
}

public struct Pen: Hashable, Codable, Sendable {
    public var color: PenColor
    public var width: PenWidth
    public init(color: PenColor, width: PenWidth) { self.color = color; self.width = width }
}
