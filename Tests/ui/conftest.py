import pytest

from harness import Display


@pytest.fixture(scope="session")
def display():
    d = Display().start()
    yield d
    d.stop()
