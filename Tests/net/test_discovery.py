"""Discovery against real Avahi and real UDP, in a private network namespace
(see netsandbox.py): our publisher seen by avahi-browse, avahi-publish seen
by our browser, and the beacon still working without any daemon.

Waits have generous limits that only stop a hang; nothing is judged by time."""
import os

import pytest

from netsandbox import BIN, Sandbox, namespaces_available, tools_missing

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="needs root for namespaces, D-Bus and avahi-daemon"),
    pytest.mark.skipif(bool(tools_missing()), reason=f"missing: {' '.join(tools_missing())} (scripts/deps.sh test)"),
    pytest.mark.skipif(not BIN.exists(), reason=f"{BIN} not built"),
    pytest.mark.skipif(os.geteuid() == 0 and not namespaces_available(),
                       reason="cannot create network namespaces (container without CAP_SYS_ADMIN?)"),
]

LIMIT = 30  # seconds; only against hangs


@pytest.fixture
def net(tmp_path):
    sandbox = Sandbox(tmp_path).start()
    yield sandbox
    sandbox.stop()


@pytest.fixture
def avahi(net):
    net.start_bus()
    net.start_avahi()
    return net


def test_our_announcement_is_seen_by_avahi_browse(avahi):
    announce = avahi.app("announce", "--name", "Anna Test", "--port", "47851", "--id", "anna-1")
    announce.wait_for(r"^status: dnssd running$", LIMIT)

    services = [s for s in avahi.browse() if s["txt"].get("id") == "anna-1"]
    assert services, avahi.browse()
    s = services[0]
    assert s["name"] == "Anna Test"
    assert (s["address"], s["port"]) == ("127.0.0.1", 47851)
    assert s["txt"] == {"v": "4", "id": "anna-1", "host": "Anna Test", "act": "sketch", "open": "1"}


def test_closing_the_lobby_updates_the_txt_record(avahi):
    discover = avahi.app("discover", "--no-beacon")
    discover.wait_for(r"^status: dnssd running$", LIMIT)
    announce = avahi.app("announce", "--name", "Anna", "--port", "47851", "--id", "anna-2",
                         "--activity", "wordpost", "--close-after", "1", "--no-beacon")
    discover.wait_for(r"^found: dnssd anna-2 Anna 127\.0\.0\.1:47851 code=000010$", LIMIT)
    announce.wait_for(r"^closed: anna-2$", LIMIT)

    # Our resolver stays open and reports the new TXT record...
    discover.wait_for(r"^changed: anna-2 Anna 127\.0\.0\.1:47851 open=0$", LIMIT)
    # ...and so does the daemon to anyone who asks.
    txt = [s["txt"] for s in avahi.browse() if s["txt"].get("id") == "anna-2"]
    assert txt and txt[0]["open"] == "0" and txt[0]["act"] == "wordpost", txt


def test_a_service_from_avahi_publish_is_seen_by_discover(avahi):
    discover = avahi.app("discover", "--no-beacon")
    publish = avahi.popen(["avahi-publish", "-s", "Bob Test", "_teamsketch._tcp", "47852",
                           "v=1", "id=bob-1", "host=Bob", "act=sketch", "open=1"])
    publish.wait_for(r"Established under name", LIMIT)
    discover.wait_for(r"^found: dnssd bob-1 Bob 127\.0\.0\.1:47852 code=000011$", LIMIT)

    # A service of our type without our TXT fields is not a session.
    avahi.popen(["avahi-publish", "-s", "Stranger", "_teamsketch._tcp", "47853", "hello=world"]) \
        .wait_for(r"Established under name", LIMIT)

    # Withdrawn: mDNS says goodbye and the session is gone at once.
    publish.terminate()
    discover.wait_for(r"^lost: dnssd bob-1$", LIMIT)
    discover.terminate()
    assert "Stranger" not in discover.finish()


def test_both_mechanisms_find_one_session_and_merge_it(avahi):
    avahi.add_multicast_route()
    announce = avahi.app("announce", "--name", "Cleo", "--port", "47855", "--id", "cleo-1")
    announce.wait_for(r"^status: beacon running$", LIMIT)
    discover = avahi.app("discover")
    discover.wait_for(r"^found: dnssd cleo-1 Cleo 127\.0\.0\.1:47855 code=000014$", LIMIT)
    discover.wait_for(r"^found: beacon cleo-1 Cleo 127\.0\.0\.1:47855 code=000014$", LIMIT)
    discover.wait_for(r"^status: dnssd running$", LIMIT)
    discover.wait_for(r"^status: beacon running$", LIMIT)


def test_dnssd_comes_back_after_the_daemon_restarts(avahi):
    announce = avahi.app("announce", "--name", "Eva", "--port", "47851", "--id", "eva-1", "--no-beacon")
    discover = avahi.app("discover", "--no-beacon")
    discover.wait_for(r"^found: dnssd eva-1 ", LIMIT)
    seen, said = discover.mark(), announce.mark()

    avahi.avahi_daemon.terminate()
    discover.wait_for(r"^lost: dnssd eva-1$", LIMIT, since=seen)
    discover.wait_for(r"^status: dnssd unavailable: daemon not running$", LIMIT, since=seen)
    announce.wait_for(r"^status: dnssd unavailable: daemon not running$", LIMIT, since=said)

    avahi.start_avahi()
    announce.wait_for(r"^status: dnssd running$", LIMIT, since=said)
    discover.wait_for(r"^found: dnssd eva-1 Eva 127\.0\.0\.1:47851 code=000010$", LIMIT, since=seen)


def test_a_name_collision_is_resolved_by_renaming(avahi):
    first = avahi.app("announce", "--name", "Finn", "--port", "47851", "--id", "finn-1", "--no-beacon")
    first.wait_for(r"^status: dnssd running$", LIMIT)
    second = avahi.app("announce", "--name", "Finn", "--port", "47852", "--id", "finn-2", "--no-beacon")
    second.wait_for(r"^status: dnssd running$", LIMIT)
    names = {s["txt"]["id"]: s["name"] for s in avahi.browse()}
    assert names == {"finn-1": "Finn", "finn-2": "Finn #2"}, names


@pytest.mark.parametrize("bus", [False, True], ids=["no-bus", "bus-without-avahi"])
def test_without_avahi_dnssd_says_why_and_the_beacon_still_works(net, bus):
    if bus:
        net.start_bus()
    announce = net.app("announce", "--name", "Dora", "--port", "47853", "--id", "dora-1", "--seconds", "60")
    # No route for multicast in the sandbox: the beacon says so and goes on
    # by broadcast.
    announce.wait_for(r"^status: beacon limited: no multicast route$", LIMIT)
    announce.wait_for(r"^status: dnssd unavailable: daemon not running$", LIMIT)

    discover = net.app("discover", "--seconds", "60")
    discover.wait_for(r"^status: dnssd unavailable: daemon not running$", LIMIT)
    discover.wait_for(r"^found: beacon dora-1 Dora 127\.0\.0\.1:47853 code=000012$", LIMIT)

    # The announcer says goodbye when it stops.
    announce.terminate()
    discover.wait_for(r"^lost: beacon dora-1$", LIMIT)
