"""The terminal client's play now: the seek's state folded from the server's answers,
and the window's keys (p in the lobby) sending what the player chose."""

from __future__ import annotations

from client.model import ClientModel
from client.model.core import Overlay, Screen
from client.model.seek import PlayNow
from protocol import messages as m


def test_a_seek_goes_from_asked_to_seeking_and_a_remote_pair_is_joined() -> None:
    seek = PlayNow()
    seek.choose(+1)
    seek.toggle_rated()
    request = seek.start()
    assert request == m.Seek(preset="five-hundred", rated=True)
    assert seek.fold(m.Seeking(preset="five-hundred", rated=True, rating=1600.0)) is None
    assert seek.status == "seeking" and seek.searching
    paired = m.SeekPaired(table="ABCD2345", opponent="bo", preset="five-hundred", rated=True,
                          seated=False)  # fmt: skip
    assert seek.fold(paired) == m.JoinTable(code="ABCD2345")
    assert seek.status == "paired" and not seek.searching


def test_the_bot_offer_is_taken_by_cancelling_and_creating_the_bot_table() -> None:
    seek = PlayNow()
    seek.start()
    seek.fold(m.SeekBotOffer(preset="classic", level="hard", rating=1800.0))
    assert seek.offer is not None
    assert seek.take_offer() == [m.CancelSeek(), m.CreateTable(preset="classic", bot="hard")]
    assert seek.offer is None and seek.take_offer() == []


def test_a_refused_rated_seek_is_kept_with_its_code_and_cancel_sends_only_when_open() -> None:
    seek = PlayNow()
    assert seek.cancel() is None
    seek.start()
    refusal = m.ErrorMessage(code="rated_needs_account", message="x", request="seek")
    seek.fold(refusal)
    assert seek.status == "refused" and seek.refusal == "rated_needs_account"
    seek.reopen()
    assert seek.status == "choosing" and seek.refusal is None
    seek.start()
    assert seek.cancel() == m.CancelSeek()


def test_p_in_the_lobby_opens_play_now_and_enter_seeks() -> None:
    sent: list[m.ClientMessage] = []
    model = ClientModel("ada", send=sent.append)
    model.screen = Screen.LOBBY
    model.press("p")
    assert model.overlay is Overlay.PLAY_NOW
    model.press("r")
    model.press("enter")
    assert sent[-1] == m.Seek(preset="classic", rated=True)
    model.handle(m.Seeking(preset="classic", rated=True, rating=1500.0))
    paired = m.SeekPaired(table="ABCD2345", opponent="bo", preset="classic", rated=True,
                          seated=True)  # fmt: skip
    model.handle(paired)
    assert model.overlay is None and model.play_now.status == "paired"
    assert sent[-1] == m.Seek(preset="classic", rated=True)  # seated: nothing to join
