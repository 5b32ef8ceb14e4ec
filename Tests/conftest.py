"""What a failed UI, network or web test leaves for a person to look at.

A failure names the screenshots it took (Tests/ui/out/, newer than the
test's start) and the logs it kept (app.log, server.log and other *.log
files under the test's own tmp_path, which pytest keeps for the last three
runs). The list goes to Tests/ui/out/failures.txt, which `make test`
prints when a stage fails (scripts/stage.sh), and into pytest's summary.

No test is run again after a failure: a test that needs a second try has
a cause to find (docs/TESTING.md, "Retries").
"""
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "Tests" / "ui" / "out"
FAILURES = OUT / "failures.txt"
_kept = []


def pytest_runtest_setup(item):
    item._started_at = time.time()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    started = getattr(item, "_started_at", time.time())
    paths = []
    if OUT.is_dir():
        paths += sorted(p for p in OUT.glob("*.png") if p.stat().st_mtime >= started - 1)
    tmp = getattr(item, "funcargs", {}).get("tmp_path")
    if tmp is not None and Path(tmp).is_dir():
        paths += sorted(Path(tmp).rglob("*.log"))
    lines = [f"{item.nodeid} ({report.when}):"] + [f"  {p}" for p in paths or ["(no screenshot or log kept)"]]
    _kept.extend(lines)
    OUT.mkdir(parents=True, exist_ok=True)
    with open(FAILURES, "a") as f:
        f.write("\n".join(lines) + "\n")


def pytest_terminal_summary(terminalreporter):
    if _kept:
        terminalreporter.section("kept for the failed tests")
        for line in _kept:
            terminalreporter.write_line(line)
