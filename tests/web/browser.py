"""A real server in a thread and real headless Chromium pages driven by Selenium.

Selenium drives Debian's ``chromium`` through Debian's ``chromedriver`` (both installed by
``.ci/run``): clicks and key presses go through the browser's own input pipeline, as a
person's do, and screenshots come from the browser. Waiting is bounded polling of DOM
conditions (``Page.wait``), never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from protocol import convert
from server import RunningServer, start_server
from server.app import Hub
from tests.server.helpers import TEST_CONFIG

T = TypeVar("T")

ARTIFACTS = Path(__file__).parent / "artifacts"
PHONE = (390, 844)
DESKTOP = (1280, 800)

# every way the page could name a card: protocol text, the face, the screen-reader name
_RANKS = "10|[2-9JQKA]"
CARD_TEXT = re.compile(rf"(?<![0-9A-Za-z])({_RANKS})([CDHS])(?![0-9A-Za-z])")
CARD_FACE = re.compile(rf"({_RANKS})\s*(?:<[^>]*>\s*)*([♣♦♥♠])")
_NAMES = "two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace"
CARD_NAME = re.compile(rf"\b({_NAMES}) of (clubs|diamonds|hearts|spades)\b", re.IGNORECASE)
_RANK_OF_NAME = dict(
    zip(
        _NAMES.split("|"),
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
        strict=True,
    )
)
_SUIT_OF = {
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
    "clubs": "C",
    "diamonds": "D",
    "hearts": "H",
    "spades": "S",
}


def cards_named_in(text: str) -> set[str]:
    """Every card that ``text`` (HTML or storage) names, in protocol form ("QS")."""
    found = {rank + suit for rank, suit in CARD_TEXT.findall(text)}
    found |= {rank + _SUIT_OF[suit] for rank, suit in CARD_FACE.findall(text)}
    found |= {
        _RANK_OF_NAME[rank.lower()] + _SUIT_OF[suit.lower()]
        for rank, suit in CARD_NAME.findall(text)
    }
    return found


class ServerThread:
    """``start_server`` on its own event loop in a daemon thread; ``call`` runs code there."""

    def __init__(self, **overrides: Any) -> None:
        # the shuffle waits for every 1.1 seat's entropy (a browser sends it at once), so
        # a page that failed to send would stall its test rather than pass unnoticed
        overrides = {"entropy_seconds": 60.0, **overrides}
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.server: RunningServer | None = None
        self.thread = threading.Thread(target=self._run, args=(overrides,), daemon=True)
        self.thread.start()
        if not self.ready.wait(20) or self.server is None:
            raise RuntimeError("the server did not start")

    def _run(self, overrides: dict[str, Any]) -> None:
        asyncio.set_event_loop(self.loop)

        async def start() -> None:
            self.server = await start_server(replace(TEST_CONFIG, **overrides))
            self.ready.set()

        self.loop.run_until_complete(start())
        self.loop.run_forever()

    @property
    def hub(self) -> Hub:
        assert self.server is not None
        return self.server.hub

    @property
    def base(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.port}/"

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url

    def call(self, function: Callable[[], T]) -> T:
        """Run ``function`` on the server's loop (between two of its steps) and return it."""

        async def run() -> T:
            return function()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def known_cards(self, code: str, seat: int | None) -> tuple[int, set[str]]:
        """The table's version and every card the seat's own view holds (what it may know)."""

        def read() -> tuple[int, set[str]]:
            table = self.hub.tables[code]
            view = convert.view_message(table.state.view_for(seat))
            return view.version, cards_named_in(view.model_dump_json())

        return self.call(read)

    def close(self) -> None:
        async def stop() -> None:
            assert self.server is not None
            await self.server.close()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(20)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def chromium_paths() -> tuple[str, str]:
    """Debian's chromium and chromedriver (installed by .ci/run)."""
    browser = shutil.which("chromium") or "/usr/bin/chromium"
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return browser, driver


class Page:
    """One headless Chromium window (its own profile: its own storage) on the web client."""

    def __init__(self, size: tuple[int, int] = DESKTOP, dark: bool = False) -> None:
        browser, driver_path = chromium_paths()
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for argument in (
            "--headless=new",
            "--no-sandbox",  # CI runs as root
            "--disable-dev-shm-usage",
            "--disable-gpu",
            "--disable-extensions",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-sync",
            "--disable-component-update",
            "--disable-default-apps",
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
            f"--window-size={size[0]},{size[1]}",
        ):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # Chromium leaves its singleton-socket folder in TMPDIR when it is stopped; give it
        # a folder of this page's own, removed at close, so runs leave nothing in /tmp.
        self._scratch = tempfile.TemporaryDirectory(prefix="spades-chromium-")
        service = Service(driver_path, env={**os.environ, "TMPDIR": self._scratch.name})
        self.driver = webdriver.Chrome(options=options, service=service)
        self.resize(size, dark)

    def resize(self, size: tuple[int, int], dark: bool = False) -> None:
        width, height = size
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {
                "width": width,
                "height": height,
                "deviceScaleFactor": 1,
                "mobile": width < 600,
            },
        )
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": width < 600})
        self.driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]},
        )

    def open(self, url: str) -> None:
        self.driver.get(url)

    def wait(self, condition: Callable[[], T], what: str, timeout: float = 30.0) -> T:
        """Poll ``condition`` (every 50 ms, at most ``timeout`` s) until it returns a truthy
        value; fail naming ``what`` and the page's errors."""

        def check(_: Any) -> T:
            try:
                return condition()
            except (StaleElementReferenceException, WebDriverException):
                return None  # type: ignore[return-value]

        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(check)
        except Exception as error:
            raise AssertionError(
                f"timed out waiting for {what}; page errors: {self.errors()}; "
                f"table: {self.js('return document.querySelector(`#table`)?.dataset')}; "
                f"messages: {self.js('return globalThis.spadesTrace')}; "
                f"link: {self.js('return document.querySelector(`#status`)?.dataset.state')}"
            ) from error

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def find(self, selector: str) -> WebElement:
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector: str) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def exists(self, selector: str) -> bool:
        return bool(self.js("return !!document.querySelector(arguments[0])", selector))

    def visible(self, selector: str) -> bool:
        """Whether the first match is shown (laid out, not hidden or transparent), read in
        one go: a find and a separate read could meet an element drawn again in between,
        and "not visible" must not be read from a stale element."""
        script = (
            "const e = document.querySelector(arguments[0]); if (!e) return false;"
            "if (!(e.offsetWidth || e.offsetHeight || e.getClientRects().length)) return false;"
            "for (let a = e; a; a = a.parentElement) {"
            "  const s = getComputedStyle(a);"
            "  if (s.visibility === 'hidden' || s.opacity === '0') return false; }"
            "return true;"
        )
        return bool(self.js(script, selector))

    def text(self, selector: str) -> str:
        """The first match's visible text, read in one go (the page may draw that part
        again between a find and a read); ``""`` when nothing matches."""
        script = "const e = document.querySelector(arguments[0]); return e ? e.innerText : ''"
        return str(self.js(script, selector))

    def attr(self, selector: str, name: str) -> str | None:
        """The first match's attribute ``name`` (``textContent`` and ``value`` read as
        properties), in one go; ``None`` when nothing matches or it has no such attribute."""
        script = (
            "const e = document.querySelector(arguments[0]); if (!e) return null;"
            "const n = arguments[1];"
            "return (n === 'textContent' || n === 'value') ? e[n] : e.getAttribute(n)"
        )
        value = self.js(script, selector, name)
        return None if value is None else str(value)

    def click(self, selector: str) -> None:
        self.wait(lambda: self.visible(selector), f"{selector} visible")
        for _ in range(3):
            try:
                self.find(selector).click()
                return
            except StaleElementReferenceException:
                # the page drew that part again between find and click (a window whose
                # shuffle check just finished): find the new element and click it
                self.wait(lambda: self.visible(selector), f"{selector} visible again")
        try:
            self.find(selector).click()
        except WebDriverException as error:
            shot = self.screenshot("failed-click")
            modal = self.js("return document.querySelector('#modal')?.outerHTML")
            raise AssertionError(
                f"cannot click {selector} ({shot}): {error.msg}; modal: {modal}; "
                f"table: {self.table_data()}"
            ) from error

    def table_data(self) -> dict[str, str]:
        data = self.js("return Object.assign({}, document.querySelector('#table')?.dataset)")
        return dict(data or {})

    def html_and_storage(self) -> str:
        """The whole DOM (attributes, hidden parts) and both storages, as one text."""
        text: str = self.js(
            "const s = (st) => Object.keys(st).map((k) => k + '=' + st.getItem(k)).join('\\n');"
            "return document.documentElement.outerHTML + '\\n' + s(localStorage) + '\\n'"
            " + s(sessionStorage);"
        )
        token = self.js("return localStorage.getItem('spades2.token')")
        # the session token is random letters: it can spell "KS" without meaning a card
        return text.replace(token, "<token>") if token else text

    def errors(self) -> list[str]:
        try:
            logs = self.driver.get_log("browser")
        except Exception:
            return []
        return [entry["message"] for entry in logs if entry["level"] == "SEVERE"]

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            self._scratch.cleanup()
