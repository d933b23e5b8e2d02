"""Moderation in the terminal client: /mute typed through the real application, and a ban."""

from __future__ import annotations

from client.model import ClientModel, Overlay
from client.render import HELP, render_overlay
from protocol import messages as m
from tests.client.helpers import CODE, model_at
from tests.client.test_keys import run_keys
from tests.client.test_model import play_state


def chats(model: ClientModel) -> list[m.Chat]:
    return [message for message in model.sent if isinstance(message, m.Chat)]


def test_slash_mute_in_the_chat_window_hides_the_others_chat_until_unmute() -> None:
    model = model_at(play_state())
    model.handle(m.ChatMessage(table=CODE, seat=1, name="bob", text="before"))
    assert list(model.chat.lines) == ["bob: before"]

    run_keys(model, "m", "/mute", "\r")
    assert model.chat.muted and model.overlay is None
    assert chats(model) == []  # /mute is this client's own business: nothing is sent

    model.handle(m.ChatMessage(table=CODE, seat=1, name="bob", text="rude"))
    model.handle(m.ChatMessage(table=CODE, seat=None, name="watcher", text="also rude"))
    model.handle(m.ChatMessage(table=CODE, seat=0, name="alice", text="my own line"))
    model.handle(m.ChatMessage(table=CODE, seat=None, name="server", text="report received"))
    shown = ["bob: before", "alice: my own line", "server: report received"]
    assert list(model.chat.lines) == shown
    assert not any("rude" in line for line in model.log)
    assert model.chat.hidden == 2

    model.quit_requested = False
    model.overlay = None
    run_keys(model, "m", "/report he insults me", "\r", "m", "/UNMUTE", "\r")
    assert [chat.text for chat in chats(model)] == ["/report he insults me"]
    assert not model.chat.muted and model.chat.hidden == 0
    assert "2 lines were hidden" in model.log[-1]
    model.handle(m.ChatMessage(table=CODE, seat=1, name="bob", text="sorry"))
    assert list(model.chat.lines)[-1] == "bob: sorry"


def test_the_chat_window_and_the_help_say_how_to_mute() -> None:
    model = model_at(play_state())
    assert "/mute" in HELP and "/report" in HELP
    model.press("m")
    assert model.overlay is Overlay.CHAT
    drawn = "".join(text for _, text, *_ in render_overlay(model))
    assert "/mute" in drawn and "Chat (others muted)" not in drawn
    model.chat.mute(True)
    drawn = "".join(text for _, text, *_ in render_overlay(model))
    assert "Chat (others muted)" in drawn


def test_a_ban_stops_the_client_from_coming_back() -> None:
    model = model_at(play_state())
    assert model.welcomed_once and not model.given_up
    message = "you are banned from this server"
    model.handle(m.ErrorMessage(code="banned", message=message, request=None, id=None))
    assert model.given_up and model.connection == "closed"
    assert "banned you" in model.connect_error
