"""The rules in words, for people: the rules screen (drawn from the table's actual rule
set) and the labels of the create-table form.

    describe_rules(RuleSet.preset("five-hundred"))   # -> lines of text
    FIELD_LABELS["failed_nil_tricks_are_bags"]      # -> "Failed nil: tricks count as bags"

docs/rules.md says the same at length.
"""

from __future__ import annotations

from engine import RuleSet

__all__ = ["FIELD_LABELS", "describe_rules", "field_value_text"]

FIELD_LABELS: dict[str, str] = {
    "preset": "Rules preset",
    "private": "Private table (join by code)",
    "bot": "Opponent",
    "target_score": "Target score (game ends)",
    "first_bidder": "Bids and leads first",
    "see_card_after_keep": "Keep shows the next card",
    "nil": "Nil bids allowed",
    "nil_bonus": "Nil bonus / penalty",
    "blind_nil": "Blind nil allowed",
    "blind_nil_bonus": "Blind nil bonus / penalty",
    "blind_nil_exchange": "Blind nil exchange (cards)",
    "blind_nil_min_deficit": "Blind nil only when behind by",
    "bag_limit": "Bags before a penalty",
    "bag_penalty": "Bag penalty (points)",
    "failed_nil_tricks_are_bags": "Failed nil: tricks count as bags",
    "lose_score": "Lose at or below",
}


def field_value_text(name: str, value: object) -> str:
    """A rule field's value in words (``on``/``off``, ``none``, who bids first)."""
    if name == "first_bidder":
        return "the first drafter" if value == "first_drafter" else "the second drafter"
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    return str(value)


def describe_rules(rules: RuleSet) -> list[str]:
    """The rules of ``rules`` as short paragraphs (the caller wraps them), every option
    as it is set at this table."""
    preset = rules.preset_name()
    first = "first drafter" if rules.first_bidder == "first_drafter" else "second drafter"
    seen = "and you see it" if rules.see_card_after_keep else "unseen"
    out = [
        f"Preset: {preset}." if preset else "Custom rules.",
        "Each hand: no deal. In turn, the first drafter first, each seat looks at the top"
        f" card of the stock and keeps it (the next card goes to the pile, {seen}) or"
        " discards it and takes the next card. 13 turns each: 13 cards each.",
    ]
    if rules.blind_nil:
        deficit = (
            f", only when behind by {rules.blind_nil_min_deficit} points or more"
            if rules.blind_nil_min_deficit is not None
            else ""
        )
        out.append(
            f"Blind nil: declared before the draft{deficit}; worth +/-{rules.blind_nil_bonus}."
            f" After the draft a blind nil seat may give up to {rules.blind_nil_exchange}"
            " cards and draws as many from the pile."
        )
    else:
        out.append("Blind nil: off.")
    lowest = 0 if rules.nil else 1
    nil = f" 0 is nil, worth +/-{rules.nil_bonus}." if rules.nil else " Nil is off."
    out += [
        f"Bidding: one round, the {first} first; {lowest} to 13 tricks.{nil}",
        f"Play: the {first} leads the first trick. Follow suit if you can. Spades are"
        " trump and may not be led until broken (a spade was played), unless you hold"
        " only spades.",
        "Scoring: a bid made scores 10 a trick bid and 1 a trick over (a bag); a bid"
        f" missed loses 10 a trick bid. Every {rules.bag_limit} bags cost"
        f" {rules.bag_penalty} points. A failed nil's tricks "
        + ("count as bags." if rules.failed_nil_tricks_are_bags else "are not bags."),
        f"The game: the first to {rules.target_score} wins (the higher score if both"
        " get there; a tie plays another hand)"
        + (f"; at or below {rules.lose_score} loses." if rules.lose_score is not None else "."),
    ]
    return out
