import ArgumentParser
import Foundation

/// A failure the user can fix: ArgumentParser prints "Error: <message>" on
/// stderr and exits with status 1, without the usage text that a
/// ValidationError would add.
package struct CLIFailure: Error, LocalizedError, CustomStringConvertible {
    package var message: String
    package var description: String { message }
    package var errorDescription: String? { message }

    package init(message: String) {
        self.message = message
    }
}
