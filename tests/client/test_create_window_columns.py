"""The create-table window signed in: the rated line's value stands in the same terminal
column as every rule's value, in every language (widths by prompt_toolkit's get_cwidth:
a Japanese letter takes two columns)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from prompt_toolkit.utils import get_cwidth

from client.draw import Dims
from client.i18n import LANGUAGES, _, install
from client.model import ClientModel
from client.screens import create
from client.screens.account import FORM_LABEL_COLUMNS, rated_lines


@pytest.fixture(params=LANGUAGES)
def speaking(request: pytest.FixtureRequest) -> Iterator[str]:
    install(request.param)
    yield request.param
    install("en")


def value_column(text: str, value: str) -> int:
    """The terminal column where ``value`` starts in the drawn line ``text``."""
    return get_cwidth(text[: text.rindex(value)])


def test_the_rated_line_lines_up_with_the_rules(speaking: str) -> None:
    model = ClientModel("alice")
    model.account.signed_in = "alice"
    drawn = create.lines(model, Dims.of(80, 24))
    rows = ["".join(text for _style, text in line) for line in drawn]
    form = model.lobby.form
    pairs = zip(rows, form.rows(), strict=False)  # the rules' rows, then the rated line
    columns = {value_column(row, form.value_text(name)) for row, name in pairs}
    assert columns == {FORM_LABEL_COLUMNS + 2}  # " " label " " value
    (rated,) = ["".join(text for _style, text in line) for line in rated_lines(model)]
    assert rated in rows
    words = _("rated (R changes)") if model.account.rated else _("casual (R changes)")
    assert value_column(rated, words) == FORM_LABEL_COLUMNS + 2
    assert rated.startswith(" " + _("Game"))
    assert get_cwidth(rated) <= 74  # the window's inside (tests/client/test_layout.py)


def test_a_wide_label_is_measured_in_columns_not_letters() -> None:
    install("ja")
    try:
        model = ClientModel("alice")
        model.account.signed_in = "alice"
        model.account.rated = True
        (rated,) = ["".join(text for _style, text in line) for line in rated_lines(model)]
        label = _("Game")
        assert any(get_cwidth(char) == 2 for char in label)
        # padded by columns: the label's double-width letters count twice
        spaces = " " * (FORM_LABEL_COLUMNS - get_cwidth(label))
        assert rated == f" {label}{spaces} {_('rated (R changes)')}"
    finally:
        install("en")
