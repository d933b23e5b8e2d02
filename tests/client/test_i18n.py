"""The languages: the catalogues (complete, fresh, plural forms), the choice of language,
the game's own words and letters, server errors by code, and --ascii in each language."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from prompt_toolkit.utils import get_cwidth

from client.cardwords import card_text, read_card
from client.cli import _settings, build_parser
from client.errors import ERROR_TEXTS, error_text
from client.i18n import LANGUAGES, LOCALE_DIR, _, choose, install, language, ngettext, pgettext
from client.i18n_build import JSON_DIR, problems, statistics
from client.model import ClientModel, Overlay, Settings
from client.model.selection import Selection
from client.overlays import help as help_window
from client.render import render_screen_text
from engine import Card, Phase
from protocol import messages as m
from protocol.messages import ERROR_CODES
from tests.client.helpers import advance_to, dealt, model_at

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{[^}]*\}")


@pytest.fixture
def speak() -> Iterator[object]:
    """``speak(code)`` installs a language for the test; English again after it."""
    yield install
    install("en")


def test_every_msgid_in_the_code_is_translated_in_every_language_and_nothing_is_stale() -> None:
    # extraction with babel.cfg, then each .po: no message missing, untranslated or
    # fuzzy; the .mo and the page's JSON are what the .po compile to
    assert problems() == []


def test_the_statistics_count_every_message_in_every_language() -> None:
    stats = statistics()
    assert set(stats) == set(LANGUAGES)
    counts = {code: entry["messages"] for code, entry in stats.items()}
    assert len(set(counts.values())) == 1 and counts["en"] > 300
    assert all(entry["untranslated"] == 0 and entry["fuzzy"] == 0 for entry in stats.values())


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_translation_keeps_the_placeholders_of_its_msgid(code: str) -> None:
    path = LOCALE_DIR / code / "LC_MESSAGES" / "spades.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=code)
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for string in strings:
            assert set(PLACEHOLDER.findall(string)) == wanted, (code, ids[0], string)


def test_plural_forms_come_from_each_catalogue(speak: object) -> None:
    forms = {}
    for code in LANGUAGES:
        install(code)
        forms[code] = [ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 2, 5)]
    assert forms["en"] == ["1 card", "2 cards", "5 cards"]
    assert forms["de"] == ["1 Karte", "2 Karten", "5 Karten"]
    assert forms["nl"] == ["1 kaart", "2 kaarten", "5 kaarten"]
    assert forms["el"] == ["1 κάρτα", "2 κάρτες", "5 κάρτες"]
    assert forms["ja"] == ["1 枚", "2 枚", "5 枚"]  # Japanese has one form


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_page_catalogue_carries_the_plural_rule_of_the_po(code: str) -> None:
    document = json.loads((JSON_DIR / f"{code}.json").read_text(encoding="utf-8"))
    assert document["language"] == code
    nplurals = 1 if code == "ja" else 2
    assert document["plural_forms"].startswith(f"nplurals={nplurals};")
    forms = document["messages"]["{n} card"]
    assert isinstance(forms, list) and len(forms) == nplurals


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_page_picks_plural_forms_by_the_catalogues_rule() -> None:
    script = f"""
    import {{ useCatalogue, nt, t, pluralRule }} from "{ROOT}/client/web/i18n.js";
    import {{ readFileSync }} from "node:fs";
    const out = {{}};
    for (const code of ["ja", "de", "el", "nl"]) {{
      const doc = JSON.parse(readFileSync("{JSON_DIR}/" + code + ".json", "utf8"));
      useCatalogue(code, doc.messages, doc.plural_forms);
      out[code] = [1, 2].map((n) => nt("{{n}} card", "{{n}} cards", n, {{ n }}));
      out[code].push(t("Settings"));
    }}
    const polish = pluralRule("nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && "
      + "(n%100<10 || n%100>=20) ? 1 : 2);");
    out.pl = [1, 2, 5, 22, 112].map(polish);
    console.log(JSON.stringify(out));
    """
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    out = json.loads(result.stdout)
    assert out["ja"] == ["1 枚", "2 枚", "設定"]
    assert out["de"] == ["1 Karte", "2 Karten", "Einstellungen"]
    assert out["el"] == ["1 κάρτα", "2 κάρτες", "Ρυθμίσεις"]
    assert out["nl"] == ["1 kaart", "2 kaarten", "Instellingen"]
    assert out["pl"] == [0, 1, 2, 1, 2]  # a sixth language's rule works too


def test_the_language_comes_from_lang_then_the_setting_then_the_environment() -> None:
    env = {"LANGUAGE": "", "LC_ALL": "", "LANG": "de_DE.UTF-8"}
    assert choose(None, None, env) == "de"
    assert choose("ja", "nl", env) == "ja"  # --lang first
    assert choose(None, "nl", env) == "nl"  # then the setting
    assert choose(None, None, {"LANGUAGE": "fr:el:de", "LANG": "de_DE.UTF-8"}) == "el"
    assert choose(None, None, {"LC_ALL": "ja_JP.UTF-8", "LANG": "de_DE.UTF-8"}) == "ja"
    assert choose(None, None, {"LC_ALL": "C", "LANG": "de_DE.UTF-8"}) == "en"
    assert choose(None, None, {"LANG": "fr_FR.UTF-8"}) == "en"  # no catalogue: English
    assert choose("xx", None, {}) == "en"


def test_spades_lang_ja_installs_japanese(speak: object) -> None:
    args = build_parser().parse_args(["--lang", "ja"])
    settings = _settings(args)
    assert settings.language == "ja" and language() == "ja"
    assert _("Settings") == "設定"
    args = build_parser().parse_args(["play", "--lang", "el", "--ascii"])
    settings = _settings(args)
    # Greek letters have no ASCII form: with --ascii the words are English, the choice kept
    assert settings.language == "el" and language() == "en"


def test_the_settings_window_cycles_the_language(speak: object) -> None:
    model = ClientModel("alice")
    model.open(Overlay.SETTINGS)
    row = [name for name, _label in Settings.ITEMS].index("language")
    model.settings_row = row
    seen = []
    for _step in LANGUAGES:
        model.change_setting(1)
        seen.append(language())
    assert seen == [*LANGUAGES[1:], "en"]
    install("de")
    text = render_screen_text(model)
    assert "Einstellungen" in text and "Sprache" in text


@pytest.mark.parametrize("code", LANGUAGES)
def test_ascii_stays_ascii_in_every_language(speak: object, code: str) -> None:
    state = advance_to(dealt(), Phase.PLAY, 0, 3)
    settings = Settings(ascii_cards=True, language=code)
    settings.apply_language()
    model = model_at(state, settings=settings)
    model.open(Overlay.HELP)
    text = render_screen_text(model)
    assert text.isascii()
    if code == "de":
        assert "Kartenstil" not in text and "waehlen" in text  # umlauts as ae, oe, ue
    if code in ("ja", "el"):
        assert language() == "en" and "At the table" in text  # English, not "????"


def test_an_unknown_error_code_shows_the_servers_own_text(speak: object) -> None:
    install("de")
    assert error_text("a_code_from_a_newer_server", "Something new happened.") == (
        "Something new happened."
    )
    assert error_text("table_full", "Both seats are taken.") == (
        "Beide Plätze dieses Tisches sind besetzt."
    )
    install("en")
    assert error_text("table_full", "Both seats are taken.") == "Both seats are taken."


def test_every_error_code_has_words_and_the_model_shows_them(speak: object) -> None:
    assert set(ERROR_TEXTS) == set(ERROR_CODES)
    install("ja")
    model = ClientModel("alice")
    model.handle(
        m.ErrorMessage(code="unknown_table", message="No table has this code.", request=None)
    )
    assert "このコードの卓はありません。" in model.flash and "(unknown_table)" in model.flash
    unknown = m.ErrorMessage.model_construct(
        type="error", code="brand_new", message="Brand new words.", request=None, id=None
    )
    model.handle(unknown)
    assert "Brand new words." in model.flash


def test_cards_in_the_languages_letters() -> None:
    queen = Card.parse("QS")
    assert card_text(queen, "de") == "D♠" and card_text(queen, "de", ascii=True) == "DP"
    assert card_text(queen, "nl") == "V♠" and card_text(queen, "nl", ascii=True) == "VS"
    assert card_text(queen, "ja") == "Q♠" and card_text(queen, "el") == "Q♠"
    assert read_card("dp", "de") == queen and read_card("qs", "de") == queen
    assert read_card("vs", "nl") == queen and read_card("qs", "nl") == queen
    assert read_card("kk", "de") == Card.parse("KD")  # König Karo
    assert read_card("hh", "nl") == Card.parse("KH")  # heer harten
    assert read_card("10x", "de") == Card.parse("10C")  # Kreuz
    assert read_card("zz", "de") is None and read_card("dp", "en") is None


def test_a_german_player_types_dp_for_the_queen_of_spades(speak: object) -> None:
    install("de")
    selection = Selection()
    assert selection.type_card("d") == (None, "")
    assert selection.type_card("p") == (Card.parse("QS"), "")
    install("en")
    selection = Selection()
    selection.type_card("d")
    card, problem = selection.type_card("p")
    assert card is None and problem == ""  # "p" is no English card letter


def test_a_half_typed_card_takes_its_suit_letter_before_the_pile_window(speak: object) -> None:
    install("de")
    for _attempt in range(200):
        state = advance_to(dealt(n=_attempt), Phase.PLAY, 0, _attempt)
        model = model_at(state)
        # Pik (p) is the pile window's key, Kreuz (x) the leave key
        chosen = [c for c in model.legal_cards() if c.suit in (0, 3)]
        if chosen:
            break
    else:
        raise AssertionError("no legal spade or club")
    card = chosen[0]
    model.settings.confirm_before_play = True
    suit = "x" if card.suit == 0 else "p"
    for key in card_text(card, "de")[:-1].lower():
        model.press(key)
    model.press(suit)  # the card, not the window
    assert model.overlay is None and model.cursor == card
    model.press(suit)  # nothing half typed: the window
    assert model.overlay in (Overlay.PILE, Overlay.LEAVE)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_rules_window_is_in_the_players_language(speak: object, code: str) -> None:
    install(code)
    model = model_at(advance_to(dealt(), Phase.BIDDING, 0, 2))
    model.open(Overlay.RULES)
    text = render_screen_text(model)
    document = "docs/rules.md" if code == "en" else f"docs/rules.{code}.md"
    assert document in text
    assert _("Bidding: one round, the {first} first; {lowest} to 13 tricks.")[:6] in text


@pytest.mark.parametrize("code", ["de", "nl", "ja", "el"])
def test_the_help_says_how_to_type_a_card_in_the_language(speak: object, code: str) -> None:
    install(code)
    lines = help_window.lines(ClientModel("alice"), None)  # type: ignore[arg-type]
    text = "\n".join("".join(part for _style, part in line) for line in lines)
    example = {"de": "dp, 10h", "nl": "vs, 10h", "ja": "qs, 10h", "el": "qs, 10h"}[code]
    letters = {"de": "x k h p", "nl": "k r h s", "ja": "c d h s", "el": "c d h s"}[code]
    assert example in text and letters in text


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_rules_are_written_in_every_language_and_link_each_other(code: str) -> None:
    pages = {c: ROOT / "docs" / ("rules.md" if c == "en" else f"rules.{c}.md") for c in LANGUAGES}
    text = pages[code].read_text(encoding="utf-8")
    for other, path in pages.items():
        if other != code:
            assert f"]({path.name})" in text, (code, other)
    english = pages["en"].read_text(encoding="utf-8")

    def shape(markdown: str) -> tuple[int, int, int]:
        lines = markdown.splitlines()
        headings = sum(1 for line in lines if line.startswith("#"))
        rows = sum(1 for line in lines if line.startswith("| "))
        options = len(re.findall(r"^\| `\w+` \|", markdown, re.MULTILINE))
        return headings, rows, options

    # the same sections, tables and options as the English text it was translated from
    assert shape(text) == shape(english)


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_narrow_column_holds_its_word_whole(speak: object, code: str) -> None:
    # pad() would cut a word too wide for its column with "…": each word is measured
    # by its width on screen (a Japanese character is two columns)
    install(code)
    sheet = {
        pgettext("score sheet", "bid"): 4,
        _("tk"): 2,
        _("bags"): 4,
        _("pen"): 5,
        _("pts"): 5,
        _("total"): 6,
        pgettext("score sheet", "hand"): 4,
        _("bn"): 4,
        _("nil"): 4,
    }
    side = {_("score"): 5, _("bags"): 5, _("bid"): 4, _("won"): 5}  # "blind nil" follows bid
    result = {_(word): 16 for word in ("bid", "tricks", "bags added", "bag penalty", "points")}
    result[_("total (bags)")] = 16
    for word, width in {**sheet, **side, **result}.items():
        assert get_cwidth(word) <= width, (code, word, width)
