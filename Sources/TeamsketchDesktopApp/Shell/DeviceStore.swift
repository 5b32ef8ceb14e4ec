import Foundation
import LearnStore

/// The device's store, opened at start. A file that cannot be opened is
/// left as it is (it may be damaged, or another program's): the person is
/// told, and drawing goes on in a store kept only until the app closes.
@MainActor
enum DeviceStore {
    static func open(path: String, window: Widget?) -> LocalStore? {
        do {
            return try LocalStore(path: path)
        } catch {
            FileHandle.standardError.write(Data("teamsketch: store \(path): \(error)\n".utf8))
            Alert.show(parent: window, title: `_`("Your saved sketches could not be opened"),
                       message: String(format: `_`("The file %@ is damaged or belongs to another program. It was not changed.\n\nYou can still draw, but sketches are kept only until Teamsketch is closed. Please ask your teacher to look at the file."), path))
            return try? LocalStore.inMemory()
        }
    }
}
