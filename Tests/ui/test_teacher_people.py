"""People change over a school year, in the teacher's window: the teacher
renames a pupil, moves her into another class, saves everything of a pupil
for his family and then removes him for good after reading what goes; as the school's admin (its first teacher) she adds
a colleague, decides how long archived classes are kept and gives him a
new password, and she changes her own. Controls
are found by the names a screen reader reads (AT-SPI), pressed with the
mouse, and the dialogs judged by their pixels; the real server says what
happened."""
import json
import sys
import tempfile
import time
import urllib.error
import zipfile
from pathlib import Path


import a11y
from harness import ACTIVE, DESTRUCTIVE_RED, SUGGESTED_BLUE, App, blobs, find_color, save_file, small_buttons, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call, keep_teacher_sign_in  # noqa: E402


def pressed(node):
    """Whether a toggle button is the chosen one."""
    import pyatspi
    states = node.getState().getStates()
    return pyatspi.STATE_PRESSED in states or pyatspi.STATE_CHECKED in states


def click_named(app, root, name, role="push button", screen_height=860):
    """A click in the middle of the control a screen reader calls `name`;
    below the window's bottom, the page is scrolled with the wheel first,
    as a person would."""
    component = a11y.find(root, name, role).queryComponent()
    for _ in range(30):
        e = component.getExtents(0)
        if e.width > 0 and e.height > 0 and e.y >= 0 and e.y + e.height <= screen_height:
            break
        app.click(600, 600, button=5)
        time.sleep(0.2)
    assert e.width > 0 and e.height > 0 and e.y + e.height <= screen_height, f"{name} is not on the screen: {e.x},{e.y}"
    app.click(e.x + e.width / 2, e.y + e.height / 2)
    time.sleep(0.8)


def pupils(server, token, klass):
    return sorted(p["name"] for p in call(server.port, "GET", f"/classes/{klass}/pupils", token))


def signs_in(server, name, password):
    try:
        call(server.port, "POST", "/sessions", body={"name": name, "password": password})
        return True
    except urllib.error.HTTPError as refused:
        assert refused.code == 401, refused.code
        return False


def test_a_teacher_renames_moves_and_removes_pupils_and_manages_accounts(display, tmp_path, bus):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    app = None
    try:
        signed = server.sign_in()
        token = signed["token"]
        two_b = call(server.port, "POST", "/classes", token, {"name": "2b"})["id"]
        two_c = call(server.port, "POST", "/classes", token, {"name": "2c"})["id"]
        for klass, name in [(two_b, "Mia"), (two_b, "Ben"), (two_c, "Lea")]:
            call(server.port, "POST", f"/classes/{klass}/pupils", token, {"name": name})
        keep_teacher_sign_in(tmp_path, server, signed)

        app = App(display, tmp_path, extra_env=bus.app_env)
        root = a11y.root(app)
        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)   # signed in: straight in
        click_named(app, root, "Classes")
        a11y.find(root, "Rename Mia", seconds=15)
        app.screenshot("people-class")

        # Rename: the field has the keyboard and her name; Return renames.
        click_named(app, root, "Rename Mia")
        field = a11y.find(root, "New name of Mia")
        shot = app.screenshot("people-rename")
        assert find_color(shot, SUGGESTED_BLUE, tol=20), "the dialog's blue Rename is not drawn"
        assert a11y.focused(root).name == "New name of Mia", "the name field does not have the keyboard"
        assert field is not None
        app.key("ctrl+a")
        app.type("Mia Sommer")
        app.key("Return")
        wait_for(lambda: pupils(server, token, two_b) == ["Ben", "Mia Sommer"], what="Mia renamed on the server")
        wait_for(lambda: "classes: renamed a pupil" in app.read_log(), what="the rename in the app")

        # Move: the other class is chosen already; Move moves her.
        click_named(app, root, "Move Mia Sommer to another class")
        shot = app.screenshot("people-move")
        assert find_color(shot, ACTIVE, tol=10), "the class to move to is not shown chosen"
        assert find_color(shot, SUGGESTED_BLUE, tol=20), "the dialog's blue Move is not drawn"
        move = max(blobs(shot, SUGGESTED_BLUE, tol=20), key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
        app.click((move[0] + move[2]) / 2, (move[1] + move[3]) / 2)
        wait_for(lambda: pupils(server, token, two_c) == ["Lea", "Mia Sommer"], what="Mia in 2c on the server")
        assert pupils(server, token, two_b) == ["Ben"]

        # Before he goes, his family asked for his data: a zip of his
        # records, saved where the teacher says.
        click_named(app, root, "Export everything of Ben")
        out = tmp_path / "ben.zip"
        save_file(app, out)
        with zipfile.ZipFile(out) as archive:
            assert sorted(archive.namelist()) == ["changes.json", "pupil.json", "sketches.json"], archive.namelist()
            record = json.loads(archive.read("pupil.json"))
            assert record["name"] == "Ben" and record["class"]["name"] == "2b", record
        wait_for(lambda: "classes: exported a pupil" in app.read_log(), what="the export in the app")
        a11y.find(root, "Everything of Ben is saved in ben.zip.", role="label")

        # Remove: the question names what goes, in red; then Ben is gone.
        click_named(app, root, "Remove Ben")
        def red_button():
            found = blobs(app.screenshot("people-remove"), DESTRUCTIVE_RED, tol=30)
            return max(found, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if found else None
        sure = wait_for(red_button, what="the question before removing Ben")
        question = a11y.find(root, "Remove Ben for good?", role="label")
        assert question is not None
        said = [n.name for n in a11y.nodes(root) if (n.name or "").startswith("This erases")]
        assert said and "0 sketches" in said[0] and "the account and its pictures" in said[0], said
        app.click((sure[0] + sure[2]) / 2, (sure[1] + sure[3]) / 2)
        wait_for(lambda: pupils(server, token, two_b) == [], what="Ben removed on the server")
        a11y.find(root, "Ben was removed.", role="label")
        app.screenshot("people-removed")

        # The admin adds a colleague with a first password.
        click_named(app, root, "Name of the new teacher", role=None)
        app.type("Herr Neu")
        click_named(app, root, "First password of the new teacher", role=None)
        app.type("tafel und kreide")
        app.key("Return")
        wait_for(lambda: signs_in(server, "Herr Neu", "tafel und kreide"), what="Herr Neu signing in")
        a11y.find(root, "New password for Herr Neu", seconds=15)
        app.screenshot("people-teachers")

        # The end of the school year: archived classes go after a year,
        # once she has said yes to the question in red.
        click_named(app, root, "After 1 year")
        def red_erase():
            found = blobs(app.screenshot("people-retention-ask"), DESTRUCTIVE_RED, tol=30)
            return max(found, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if found else None
        sure = wait_for(red_erase, what="the question before erasing archived classes")
        assert call(server.port, "GET", "/school/retention", token).get("days") is None, "set before she said yes"

        # She closes the question instead (Alt+F4, as its ✕ does): nothing
        # is set, and the choice shown is the server's again.
        ask = app.xdo_out("search", "--sync", "--name", "^Erase archived classes").split()[0]
        app.xdo("windowactivate", "--sync", ask)
        app.key("alt+F4")
        wait_for(lambda: pressed(a11y.find(root, "Kept", role=None)) and not pressed(a11y.find(root, "After 1 year", role=None)),
                 what="the server's choice shown again after the question was closed")
        assert call(server.port, "GET", "/school/retention", token).get("days") is None, "set though she closed the question"
        click_named(app, root, "After 1 year")
        sure = wait_for(red_erase, what="the question asked again")
        app.click((sure[0] + sure[2]) / 2, (sure[1] + sure[3]) / 2)
        wait_for(lambda: call(server.port, "GET", "/school/retention", token).get("days") == 365,
                 what="a year's retention on the server")
        a11y.find(root, "Archived classes are erased 1 year after they were archived.", role="label")
        app.screenshot("people-retention")

        # He forgot it: the admin gives him another.
        click_named(app, root, "New password for Herr Neu")
        app.type("neues passwort")
        app.key("Return")
        wait_for(lambda: signs_in(server, "Herr Neu", "neues passwort"), what="Herr Neu's new password")
        assert not signs_in(server, "Herr Neu", "tafel und kreide")

        # Her own: typed wrong first (said, nothing changes), then right.
        for current in ["falsch-geraten", "richtig-geheim"]:
            click_named(app, root, "Change my password…")
            app.type(current)
            app.key("Return")
            app.type("ganz-neu-1234")
            app.key("Return")
            app.type("ganz-neu-1234")
            app.key("Return")
            if current.startswith("falsch"):
                a11y.find(root, "That is not your current password.", role="label")
                assert signs_in(server, "Frau Berg", "richtig-geheim")
        wait_for(lambda: signs_in(server, "Frau Berg", "ganz-neu-1234"), what="her new password")
        assert not signs_in(server, "Frau Berg", "richtig-geheim")
        a11y.find(root, "Your password is changed.", role="label")
        # This computer's sign-in goes on.
        assert call(server.port, "GET", "/me", token)["name"] == "Frau Berg"
        app.screenshot("people-own-password")
    finally:
        if app:
            app.stop()
        server.stop()
