"""The rules in words, for people: the rules screen (drawn from the table's actual rule
set) and the labels of the create-table form.

    describe_rules(RuleSet.preset("five-hundred"))   # -> lines of text
    FIELD_LABELS["failed_nil_tricks_are_bags"]      # -> "Failed nil: tricks count as bags"

docs/rules.md says the same at length.
"""

from __future__ import annotations

from client.i18n import N_, _
from engine import RuleSet

__all__ = [
    "FIELD_LABELS",
    "LEVEL_WORDS",
    "PRESET_SUMMARIES",
    "PRESET_WORDS",
    "STATUS_WORDS",
    "describe_rules",
    "field_value_text",
    "level_text",
    "preset_summary",
    "preset_text",
    "rules_document",
    "status_text",
]

# the words the server sends as values (presets, bot levels, table states): shown
# translated, sent as they are
PRESET_WORDS: dict[str, str] = {"classic": N_("classic"), "five-hundred": N_("five-hundred")}
LEVEL_WORDS: dict[str, str] = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
STATUS_WORDS: dict[str, str] = {
    "waiting": N_("waiting"),
    "playing": N_("playing"),
    "over": N_("over"),
    "finished": N_("finished"),
}


def preset_text(preset: str) -> str:
    """A preset's name in the language in use (an unknown one as it is)."""
    return _(PRESET_WORDS[preset]) if preset in PRESET_WORDS else preset


def level_text(level: str) -> str:
    """A bot level (``easy``, ``normal``, ``hard``) in the language in use."""
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level


# each preset's few words for a menu, by its code: client/web/rules.json carries the
# English (python3 -m client.webrules writes it from here), both clients show it
# translated; a test holds each to its preset's rules
PRESET_SUMMARIES: dict[str, str] = {
    "classic": N_("to 300"),
    "five-hundred": N_("to 500, blind nil"),
}


def preset_summary(preset: str, english: str = "") -> str:
    """Preset ``preset``'s few words (``to 300``) in the language in use; for a preset
    this client does not know, ``english`` (the words the server or rules.json gave)."""
    return _(PRESET_SUMMARIES[preset]) if preset in PRESET_SUMMARIES else english


def status_text(status: str) -> str:
    """A table's state (``waiting``, ``playing``) in the language in use."""
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def rules_document(code: str) -> str:
    """Where the rules are written out in full in language ``code`` (``docs/rules.de.md``)."""
    return "docs/rules.md" if code == "en" else f"docs/rules.{code}.md"


FIELD_LABELS: dict[str, str] = {
    "preset": N_("Rules preset"),
    "private": N_("Private table (join by code)"),
    "bot": N_("Opponent"),
    "target_score": N_("Target score (game ends)"),
    "first_bidder": N_("Bids and leads first"),
    "see_card_after_keep": N_("Keep shows the next card"),
    "nil": N_("Nil bids allowed"),
    "nil_bonus": N_("Nil bonus / penalty"),
    "blind_nil": N_("Blind nil allowed"),
    "blind_nil_bonus": N_("Blind nil bonus / penalty"),
    "blind_nil_exchange": N_("Blind nil exchange (cards)"),
    "blind_nil_min_deficit": N_("Blind nil only when behind by"),
    "bag_limit": N_("Bags before a penalty"),
    "bag_penalty": N_("Bag penalty (points)"),
    "failed_nil_tricks_are_bags": N_("Failed nil: tricks count as bags"),
    "lose_score": N_("Lose at or below"),
}


def field_value_text(name: str, value: object) -> str:
    """A rule field's value in words (``on``/``off``, ``none``, who bids first)."""
    if name == "first_bidder":
        return _("the first drafter") if value == "first_drafter" else _("the second drafter")
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if value is None:
        return _("none")
    if name == "preset" and isinstance(value, str):
        return preset_text(value)
    return str(value)


def describe_rules(rules: RuleSet) -> list[str]:
    """The rules of ``rules`` as short paragraphs (the caller wraps them), every option
    as it is set at this table, in the language in use."""
    preset = rules.preset_name()
    first = _("first drafter") if rules.first_bidder == "first_drafter" else _("second drafter")
    if rules.see_card_after_keep:
        draft = _(
            "Each hand: no deal. In turn, the first drafter first, each seat looks at the top"
            " card of the stock and keeps it (the next card goes to the pile, and you see it)"
            " or discards it and takes the next card. 13 turns each: 13 cards each."
        )
    else:
        draft = _(
            "Each hand: no deal. In turn, the first drafter first, each seat looks at the top"
            " card of the stock and keeps it (the next card goes to the pile, unseen) or"
            " discards it and takes the next card. 13 turns each: 13 cards each."
        )
    if not preset:
        named = _("Custom rules.")
    elif preset in PRESET_SUMMARIES:
        named = _("Preset: {preset} ({summary}).").format(
            preset=preset_text(preset), summary=preset_summary(preset)
        )
    else:
        named = _("Preset: {preset}.").format(preset=preset_text(preset))
    out = [
        named,
        draft,
    ]
    if rules.blind_nil:
        if rules.blind_nil_min_deficit is not None:
            when = _(
                "Blind nil: declared before the draft, only when behind by {deficit} points"
                " or more; worth +/-{bonus}."
            )
        else:
            when = _("Blind nil: declared before the draft; worth +/-{bonus}.")
        exchange = _(
            "After the draft a blind nil seat may give up to {cards} cards and draws as many"
            " from the pile."
        )
        out.append(
            when.format(deficit=rules.blind_nil_min_deficit, bonus=rules.blind_nil_bonus)
            + " "
            + exchange.format(cards=rules.blind_nil_exchange)
        )
    else:
        out.append(_("Blind nil: off."))
    lowest = 0 if rules.nil else 1
    nil = (
        _("0 is nil, worth +/-{bonus}.").format(bonus=rules.nil_bonus)
        if rules.nil
        else _("Nil is off.")
    )
    failed = (
        _("A failed nil's tricks count as bags.")
        if rules.failed_nil_tricks_are_bags
        else _("A failed nil's tricks are not bags.")
    )
    if rules.lose_score is not None:
        game = _(
            "The game: the first to {target} wins (the higher score if both get there; a tie"
            " plays another hand); at or below {lose} loses."
        )
    else:
        game = _(
            "The game: the first to {target} wins (the higher score if both get there; a tie"
            " plays another hand)."
        )
    out += [
        _("Bidding: one round, the {first} first; {lowest} to 13 tricks.").format(
            first=first, lowest=lowest
        )
        + " "
        + nil,
        _(
            "Play: the {first} leads the first trick. Follow suit if you can. Spades are"
            " trump and may not be led until broken (a spade was played), unless you hold"
            " only spades."
        ).format(first=first),
        _(
            "Scoring: a bid made scores 10 a trick bid and 1 a trick over (a bag); a bid"
            " missed loses 10 a trick bid. Every {limit} bags cost {penalty} points."
        ).format(limit=rules.bag_limit, penalty=rules.bag_penalty)
        + " "
        + failed,
        game.format(target=rules.target_score, lose=rules.lose_score),
    ]
    return out
