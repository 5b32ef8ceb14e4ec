import ArgumentParser
import LearnModel

/// `--guides none|squared|lined`: ArgumentParser lists the values in the
/// help and names them when a wrong one is given.
extension LineGuides: ExpressibleByArgument {}
