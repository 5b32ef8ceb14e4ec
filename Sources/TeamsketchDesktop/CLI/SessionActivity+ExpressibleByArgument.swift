import ArgumentParser
import LearnModel

/// `--activity sketch|wordpost`.
extension SessionActivity: ExpressibleByArgument {}
