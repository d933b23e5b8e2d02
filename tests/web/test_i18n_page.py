"""The page in the player's language: the menu in the settings window switches the words
and <html lang>, the choice is remembered; the browser's languages choose before it; the
server's refusals show by code, its own words for a code the page does not know."""

from __future__ import annotations

from typing import Any

from tests.web.browser import Page, ServerThread
from tests.web.play import choose, create, enter


def in_page(page: Page, body: str, *args: Any) -> Any:
    """Run ``body`` (an async function body, the i18n and errors modules imported as
    ``i18n`` and ``errors``) in the page."""
    script = (
        "const done = arguments[arguments.length - 1];"
        "const args = Array.from(arguments).slice(0, -1);"
        "Promise.all([import('/i18n.js'), import('/errors.js')])"
        ".then(async ([i18n, errors]) => {" + body + "})"
        ".then(done, (e) => done('error: ' + e));"
    )
    return page.driver.execute_async_script(script, *args)


def test_the_settings_menu_switches_the_language_and_it_is_remembered(
    server: ServerThread, page: Page
) -> None:
    enter(page, server.base, "Yuki")
    create(page, bot="easy")
    assert page.js("return document.documentElement.lang") == "en"
    assert page.text("#open-settings") == "Settings (o)"
    page.click("#open-settings")
    choose(page, "#set-lang", "ja")
    page.wait(lambda: page.js("return document.documentElement.lang") == "ja", "<html lang=ja>")
    page.wait(lambda: page.text("#open-settings") == "設定 (o)", "the table in Japanese")
    assert page.text("h1") == "♠ スペード"  # index.html's own words too
    assert page.js("return localStorage.getItem('spades2.language')") == "ja"
    page.driver.refresh()
    page.wait(lambda: page.js("return document.documentElement.lang") == "ja", "ja after reload")
    page.wait(lambda: page.exists("#open-settings"), "the table again")
    page.wait(lambda: page.text("#open-settings") == "設定 (o)", "Japanese after reload")
    page.click("#open-settings")
    choose(page, "#set-lang", "el")
    page.wait(lambda: page.text("#open-settings") == "Ρυθμίσεις (o)", "the table in Greek")
    assert page.js("return document.documentElement.lang") == "el"


def test_the_browsers_languages_choose_and_plural_forms_follow_the_catalogue(
    server: ServerThread, page: Page
) -> None:
    page.open(server.base)
    page.wait(lambda: page.visible("#name-input"), "the page")
    chosen = in_page(
        page,
        "return [i18n.chooseLanguage(null, ['fr-FR', 'nl-BE', 'de']),"
        " i18n.chooseLanguage(null, ['fr-FR']),"
        " i18n.chooseLanguage({ getItem: () => 'el' }, ['de'])];",
    )
    assert chosen == ["nl", "en", "el"]
    forms = in_page(
        page,
        "await i18n.loadLanguage('ja');"
        "const ja = [1, 2].map((n) => i18n.nt('{n} card', '{n} cards', n, { n }));"
        "await i18n.loadLanguage('de');"
        "const de = [1, 2].map((n) => i18n.nt('{n} card', '{n} cards', n, { n }));"
        "const number = i18n.formatNumber(1234);"
        "await i18n.loadLanguage('en');"
        "return [ja, de, number];",
    )
    assert forms == [["1 枚", "2 枚"], ["1 Karte", "2 Karten"], "1.234"]


def test_an_unknown_error_code_shows_the_servers_words(server: ServerThread, page: Page) -> None:
    page.open(server.base)
    page.wait(lambda: page.visible("#name-input"), "the page")
    shown = in_page(
        page,
        "await i18n.loadLanguage('de');"
        "const known = errors.errorText({ code: 'table_full', message: 'Both seats are taken.' });"
        "const unknown = errors.errorText({ code: 'new_code', message: 'Something new.' });"
        "await i18n.loadLanguage('en');"
        "const english = errors.errorText({ code: 'table_full', message: 'Both seats.' });"
        "return [known, unknown, english];",
    )
    assert shown == ["Beide Plätze dieses Tisches sind besetzt.", "Something new.", "Both seats."]
