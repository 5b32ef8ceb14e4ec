import LearnModel

// Written out so xgettext sees each name; a teacher reads them out, so
// they are the words a child uses.

extension SessionSign.Picture {
    var localizedName: String {
        switch self {
        case .sun: `_`("sun")
        case .moon: `_`("moon")
        case .star: `_`("star")
        case .heart: `_`("heart")
        case .tree: `_`("tree")
        case .flower: `_`("flower")
        case .fish: `_`("fish")
        case .house: `_`("house")
        case .boat: `_`("boat")
        case .apple: `_`("apple")
        case .cat: `_`("cat")
        case .mushroom: `_`("mushroom")
        case .umbrella: `_`("umbrella")
        case .balloon: `_`("balloon")
        case .car: `_`("car")
        case .snail: `_`("snail")
        }
    }
}

extension SessionSign.Colour {
    var localizedName: String {
        switch self {
        case .red: `_`("Red")
        case .orange: `_`("Orange")
        case .yellow: `_`("Yellow")
        case .green: `_`("Green")
        case .blue: `_`("Blue")
        case .purple: `_`("Purple")
        case .pink: `_`("Pink")
        case .brown: `_`("Brown")
        }
    }
}
