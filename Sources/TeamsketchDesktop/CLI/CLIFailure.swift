import ArgumentParser
import Foundation

/// A failure the user can fix: ArgumentParser prints "Error: <message>" on
/// stderr and exits with status 1, without the usage text that a
/// ValidationError would add.
struct CLIFailure: Error, LocalizedError, CustomStringConvertible {
    var message: String
    var description: String { message }
    var errorDescription: String? { message }
}
