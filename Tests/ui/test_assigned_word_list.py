"""The class's word list on a pupil's laptop: the teacher gives a list to
the class on the school server; Mia, signed in on her laptop, opens
Buchstaben Post and finds that list chosen, the only one offered, shown
by its picture, and the game starts with it."""
import json
import re
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path

from harness import App, SUGGESTED_BLUE, biggest, blobs, find_color, mid, press_home_button, wait_for
from test_relay_join import signed_in
from test_wordpost import CHOSEN_LIST

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call  # noqa: E402


def push(server, token, entity, entity_id, payload):
    now = int(time.time() * 1000)
    answer = call(server.port, "POST", "/sync/push", token, {"changes": [{
        "opId": str(uuid.uuid4()), "entity": entity, "entityId": entity_id,
        "payload": json.dumps(payload), "createdAt": now}]})
    assert not answer.get("rejected"), answer


def test_the_teachers_list_for_the_class_is_the_one_a_pupil_plays(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    app = None
    try:
        teacher = server.sign_in()["token"]
        klass = call(server.port, "POST", "/classes", teacher, {"name": "2b"})["id"]
        mia = call(server.port, "POST", f"/classes/{klass}/pupils", teacher, {"name": "Mia"})["id"]
        call(server.port, "PUT", f"/pupils/{mia}/picture-password", teacher, {"pictures": [1, 2, 3]})
        answer = call(server.port, "POST", "/sign-in/pupil", body={"pupilId": mia, "pictures": [1, 2, 3]})
        signed_in(tmp_path, server.url, dict(answer, classId=klass, id=mia), "Mia")

        # The teacher's list of animals, given to 2b.
        pool = str(uuid.uuid4())
        words = [{"word": w, "hint": h, "priority": 1} for w, h in
                 [("HUND", "Er bellt."), ("KATZE", "Sie miaut."), ("MAUS", "Sie ist klein und grau.")]]
        at = int(time.time() * 1000)
        push(server, teacher, "pool", pool,
             {"change": "save", "pool": {"id": pool, "name": "Tiere der 2b", "language": "de", "items": words}, "at": at})
        push(server, teacher, "poolAssignment", pool, {"classId": klass, "assigned": True, "at": at + 1})

        app = App(display, tmp_path, extra_env={"TEAMSKETCH_WORDPOST_SEED": "7"})
        db = tmp_path / "teamsketch" / "teamsketch.sqlite"

        def assigned():
            if not db.exists():
                return False
            with sqlite3.connect(db) as c:
                return c.execute("SELECT count(*) FROM poolAssignment").fetchone()[0] > 0
        wait_for(assigned, seconds=40, what="the class's list on Mia's laptop")

        press_home_button(app, 4)                               # Buchstaben Post
        offered = wait_for(lambda: re.search(r"word lists: (\S+) chosen=(\S+) fromTeacher=(\w+)",
                                             app.read_log()),
                           what="the lists offered")
        assert (offered[1], offered[2], offered[3]) == (pool, pool, "true"), offered.group(0)
        shot = app.screenshot("assigned-lists")
        chosen = biggest(blobs(shot, CHOSEN_LIST, tol=20))
        assert chosen, "no list is chosen"
        colourful = [p for p in find_color(shot, (128, 128, 128), tol=255, box=chosen)
                     if max(shot.getpixel(p)[:3]) - min(shot.getpixel(p)[:3]) > 80]
        assert len(colourful) > 150, "the class's list shows no picture"

        # Play alone: the game starts with it.
        play = wait_for(lambda: biggest(blobs(app.screenshot("assigned-start"), SUGGESTED_BLUE, tol=25)),
                        what="the Play button")
        app.click(*mid(play))
        wait_for(lambda: "page: wordpost" in app.read_log().splitlines(), what="the game", app=app)
    finally:
        if app:
            app.stop()
        server.stop()
