import CGtk
import Foundation
import TeamsketchCore

/// Short sounds for the game's moments, played from the audio files among
/// the resources (sounds/*.wav) through GTK's media stream (GStreamer
/// backend). A class that wants quiet switches them off; without a media
/// backend or an audio device the game is simply silent, and so it is for
/// a sound whose file is missing or damaged — the person is told once.
@MainActor
final class GameSounds {
    typealias Sound = GameSound

    /// Looked up once per run: the files do not move while the app runs,
    /// and one message about them is enough.
    private static var files: GameSoundFiles?

    private let enabled: Bool
    private var streams: [Sound: UnsafeMutablePointer<GtkMediaStream>] = [:]

    init(enabled: Bool) {
        self.enabled = enabled
        if enabled { _ = Self.found() }
    }

    func play(_ sound: Sound) {
        guard enabled else { return }
        if streams[sound] == nil {
            guard let path = Self.found().paths[sound] else { return }
            streams[sound] = UnsafeMutableRawPointer(gtk_media_file_new_for_filename(path))?.assumingMemoryBound(to: GtkMediaStream.self)
        }
        guard let stream = streams[sound] else { return }
        gtk_media_stream_seek(stream, 0)
        gtk_media_stream_play(stream)
    }

    private static func found() -> GameSoundFiles {
        if let files { return files }
        let found = GameSoundFiles(locator: AppResources.locator)
        files = found
        ResourceNotice.report(
            found.problems, title: `_`("The game is quiet"),
            message: String(format: `_`("Some of the game's sounds are missing or damaged (%@), so the game plays without them."),
                            ResourceNotice.names(found.problems)) + "\n\n" + ResourceNotice.reinstallAdvice)
        return found
    }
}
