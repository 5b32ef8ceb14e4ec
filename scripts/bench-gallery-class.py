#!/usr/bin/env python3
"""`make bench`'s teacher's class page of the web gallery after a school
year: a class of 30 pupils, each with 4,000 Buchstaben Post rounds (200
school days of 20 words) and a grade, made through the real API of a
running server; then the teacher's class page and one pupil's page are
asked for again and again. Prints `NAME: VALUE UNIT` lines (p50 and p99
of each page).

Usage: bench-gallery-class.py PORT TEACHER PASSWORD [PAGES]
"""
import json
import sys
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests"))
from school_server import call  # noqa: E402

PUPILS, DAYS, PER_DAY = 30, 200, 20


def page(port, path, token):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    request.add_header("cookie", f"ts_session={token}")
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as answer:
        body = answer.read()
        assert answer.status == 200, answer.status
    return time.perf_counter() - start, body


def rounds(pupil, name):
    """A school year of one pupil's rounds, as a laptop pushes them."""
    for day in range(DAYS):
        # Seconds since 2001, as Foundation encodes dates: from September on.
        played = 776_000_000 + day * 86_400
        for n in range(PER_DAY):
            stat = {"id": str(uuid.uuid4()), "gameID": str(uuid.uuid4()), "round": n + 1, "playerName": name,
                    "playerID": pupil, "word": f"Wort{n}", "finished": n % 5 != 0, "milliseconds": 15_000 + n * 500,
                    "lettersSent": 4, "lettersReceived": 3, "wrongPlacements": n % 3, "playedAt": played + n * 60}
            yield {"opId": str(uuid.uuid4()), "entity": "wordPostRoundStat", "entityId": stat["id"].lower(),
                   "payload": json.dumps(stat), "createdAt": 1_790_000_000_000}


def main():
    port, teacher, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    pages = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    token = call(port, "POST", "/sessions", body={"name": teacher, "password": password})["token"]
    klass = call(port, "POST", "/classes", token, {"name": f"Klasse {uuid.uuid4().hex[:6]}"})["id"]
    started = time.perf_counter()
    pupils = []
    for p in range(PUPILS):
        pupil = call(port, "POST", f"/classes/{klass}/pupils", token, {"name": f"Kind {p + 1}"})["id"]
        call(port, "PUT", f"/pupils/{pupil}/picture-password", token, {"pictures": [0, 1, 2]})
        pupil_token = call(port, "POST", "/sign-in/pupil", body={"pupilId": pupil, "pictures": [0, 1, 2]})["token"]
        batch = []
        for change in rounds(pupil, f"Kind {p + 1}"):
            batch.append(change)
            if len(batch) == 500:
                assert not call(port, "POST", "/sync/push", pupil_token, {"changes": batch})["rejected"]
                batch = []
        pupils.append(pupil)
    print(f"gallery_class_setup: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    for path, name in [(f"/gallery/classes/{klass}", "gallery_class_page"),
                       (f"/gallery/classes/{klass}/pupils/{pupils[0]}", "gallery_pupil_page")]:
        times = []
        for _ in range(pages):
            took, body = page(port, path, token)
            assert b"Kind 1" in body
            times.append(took * 1000)
        times.sort()
        print(f"{name}_p50: {times[len(times) // 2]:.0f} ms")
        print(f"{name}_p99: {times[min(len(times) - 1, int(len(times) * 0.99))]:.0f} ms")


if __name__ == "__main__":
    main()
