import ArgumentParser
import LearnModel

/// `--activity sketch|wordpost|…`: any valid activity kind, parsed through
/// `SessionActivity(rawValue:)`, so a bad kind gets ArgumentParser's message.
extension SessionActivity: ExpressibleByArgument {}
