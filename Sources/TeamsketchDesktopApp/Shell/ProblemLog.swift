import Foundation

/// A failure only the log needs to hear of: the person goes on as before
/// (a remembered setting not saved, a PIN try not recorded).
func logProblem(_ error: any Error) {
    FileHandle.standardError.write(Data("teamsketch: \(error)\n".utf8))
}

/// Runs `body`, logging what it throws.
func logProblems(_ body: () throws -> Void) {
    do {
        try body()
    } catch {
        logProblem(error)
    }
}
