/// A WAV file of 16-bit mono samples, as GStreamer (and every player)
/// reads it: what the speech synthesiser says is played from one.
public enum WAVFile {
    /// The RIFF header (44 bytes) and the samples, little-endian.
    public static func pcm16(_ samples: [Int16], sampleRate: Int) -> [UInt8] {
        let dataBytes = samples.count * 2
        var out: [UInt8] = []
        out.reserveCapacity(44 + dataBytes)
        func u32(_ v: Int) { out += withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian, Array.init) }
        func u16(_ v: Int) { out += withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian, Array.init) }
        out += Array("RIFF".utf8); u32(36 + dataBytes); out += Array("WAVE".utf8)
        out += Array("fmt ".utf8); u32(16); u16(1); u16(1); u32(sampleRate); u32(sampleRate * 2); u16(2); u16(16)
        out += Array("data".utf8); u32(dataBytes)
        for s in samples { u16(Int(UInt16(bitPattern: s))) }
        return out
    }
}
