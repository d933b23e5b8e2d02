"""A browser player is never stranded when the table lives on another node of a cluster
(issue 29): the page follows the redirect to that node, says hello there with the same
token, and sits down; a dropped link comes back through the page's own node."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.cluster.nodes import Node
from tests.redisfixture import RedisServer
from tests.redisfixture import redis_server as redis_server  # the fixture
from tests.web.browser import DESKTOP, Page
from tests.web.play import create, enter


@pytest.fixture
def two_nodes(redis_server: RedisServer, pg_dsn: str) -> Iterator[tuple[Node, Node]]:
    home = Node(pg_dsn, redis_server.url, "home")
    # the home node's pages may open a websocket on the other node
    away = Node(
        pg_dsn,
        redis_server.url,
        "away",
        extra=("--allowed-origin", f"http://127.0.0.1:{home.port}"),
    )
    try:
        yield home, away
    finally:
        away.stop()
        home.stop()


def base(node: Node) -> str:
    return f"http://127.0.0.1:{node.port}/"


def test_a_browser_follows_the_redirect_to_the_tables_node_and_keeps_its_session(
    two_nodes: tuple[Node, Node],
) -> None:
    home, away = two_nodes
    host, guest = Page(DESKTOP), Page(DESKTOP)
    try:
        enter(host, base(away), "Hana")
        code = create(host)  # a private table for a friend, run by the away node
        enter(guest, base(home), "Gus")
        guest.wait(lambda: guest.visible("#create"), "the lobby on the home node")
        # the lobby may show before the welcome's token is stored: wait for the token
        guest.wait(
            lambda: bool(guest.js("return localStorage.getItem('spades2.token')")),
            "the home node's session token",
        )
        token = guest.js("return localStorage.getItem('spades2.token')")
        assert token
        guest.js("location.hash = '#t=' + arguments[0]", code)
        guest.wait(lambda: guest.table_data().get("phase") not in (None, ""), "the table")
        seated = guest.js(
            "return [...document.querySelectorAll('#table .seat')]"
            ".map(s => s.textContent).join(' ')"
        )
        assert "Hana" in seated
        assert not guest.visible("#lobby")
        assert "served at" not in guest.js("return document.body.textContent")  # no error
        # the session is the one the home node gave: the same token, now on the away node
        assert guest.js("return localStorage.getItem('spades2.token')") == token
        host.wait(
            lambda: "Gus" in host.js("return document.querySelector('#table').textContent"),
            "the friend seated at the host's table",
        )
        # one join reached the away node: no request refused on the way (the nodes do not
        # wait for a seat's entropy, so a late one may be refused: that is not the redirect)
        refused = guest.js("return globalThis.spadesErrors")
        late = ("entropy:", "entropy_commit:")
        assert [code for code in refused if not code.startswith(late)] == [], refused
        assert not guest.errors() and not host.errors()
    finally:
        guest.close()
        host.close()
