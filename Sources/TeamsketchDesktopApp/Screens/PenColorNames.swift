import LearnModel

extension PenColor {
    /// Written out so xgettext sees each name.
    var localizedName: String {
        switch self {
        case .white: `_`("White")
        case .yellow: `_`("Yellow")
        case .orange: `_`("Orange")
        case .red: `_`("Red")
        case .pink: `_`("Pink")
        case .purple: `_`("Purple")
        case .lightGreen: `_`("Light green")
        case .darkGreen: `_`("Dark green")
        case .lightBlue: `_`("Light blue")
        case .darkBlue: `_`("Dark blue")
        case .brown: `_`("Brown")
        case .black: `_`("Black")
        }
    }
}
