#!/usr/bin/env python3
"""Writes the game's sounds into resources/sounds/ as 16-bit mono WAV files.

Run it again only to change a sound; the files are committed so the app
never synthesises anything at run time. Each sound is a short sequence of
soft sine notes: rising for success, a low pair for "not here". A quick
attack and an exponential decay make each note a chime, never a buzz.

    scripts/make-sounds.py [OUTPUT_DIR]     (default: resources/sounds)
"""
import math
import struct
import sys
import wave
from pathlib import Path

RATE = 22_050
VOLUME = 0.35

# Notes in Hz and their length in seconds, per sound (names match
# TeamsketchCore's GameSound).
SOUNDS = {
    "snap": [(880, 0.08), (1320, 0.10)],
    "spring-back": [(330, 0.10), (294, 0.14)],
    "send": [(660, 0.07), (990, 0.07)],
    "receive": [(990, 0.07), (660, 0.07)],
    "word": [(660, 0.10), (880, 0.10), (1320, 0.18)],
    "round": [(523, 0.12), (659, 0.12), (784, 0.12), (1046, 0.3)],
}


def samples(notes):
    out = []
    for freq, length in notes:
        for i in range(int(length * RATE)):
            t = i / RATE
            envelope = min(1.0, t * 200) * math.exp(-t * 6)
            # Truncation towards zero, as an Int16 conversion does.
            out.append(int(math.sin(2 * math.pi * freq * t) * envelope * VOLUME * 32767))
    return out


def write(path, notes):
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        s = samples(notes)
        w.writeframes(struct.pack("<%dh" % len(s), *s))


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "resources" / "sounds"
    out.mkdir(parents=True, exist_ok=True)
    for name, notes in SOUNDS.items():
        write(out / f"{name}.wav", notes)
    print(f"wrote {len(SOUNDS)} sounds to {out}")


if __name__ == "__main__":
    main()
