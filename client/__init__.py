"""client: the prompt_toolkit terminal client, the bot client and the ``spades`` command.

Where things are (the browser client is apart, in ``client/web/``):

- :mod:`client.model`: the model, in parts: ``connection`` (the link and the session),
  ``lobby`` and ``form`` (open tables, the create form), ``table`` (the table, its
  folded view, the pending turn, results and shuffle checks), ``chat``, ``selection``
  (cursor, typed card or bid, exchange picks), ``settings``; ``base`` holds them and
  what the screen shows, ``core`` folds the server's messages in.
- :mod:`client.state`: the one fold of the Python clients: events, hand results and
  turns folded into the view between snapshots, with a version check.
- :mod:`client.screens`: one module per screen or phase (connecting, lobby, create,
  waiting, deal, blind_nil, draft, exchange, bidding, play, hand_result, game_over),
  each with its keys, its drawing and its help line; ``frame`` draws the table around
  a phase's panel.
- :mod:`client.overlays`: one module per window (help, scores, settings, chat, pile,
  rules, question).
- :mod:`client.keys`: where a key goes (window, table keys, screen).
- :mod:`client.draw`: sizes, styles, text and card drawing shared by all of them;
  :mod:`client.render`: the whole screen (title, main area, side bar, prompt, status,
  window) at a size passed in.
- :mod:`client.ui`: the prompt_toolkit layout (reads the model through callables) and
  the one key binding factory.
- :mod:`client.net`: the websocket task: hello (with the session token), read, redraw,
  reconnect; says why a server cannot be reached; TLS for ``wss://``.
- :mod:`client.session`: app + network in one loop; the embedded server for ``spades``.
- :mod:`client.bot_client`: ``spades bot``, the bot as a protocol client (it folds too).
- :mod:`client.replay`: ``spades replay RECORD``; :mod:`client.analyze`: ``spades analyze``.
- :mod:`client.text`: untrusted text made safe to draw; the ``--ascii`` filter.
- :mod:`client.rules`: the rules in words (the rules screen, the create form's labels).
- :mod:`client.tokens`: session tokens kept between runs of ``spades play``.
- :mod:`client.i18n`: the words in the player's language (``_``, ``ngettext``; the
  catalogues in ``client/locale``, built by :mod:`client.i18n_build`);
  :mod:`client.cardwords`: cards in each language's letters; :mod:`client.errors`: the
  server's refusals by their code.
- :mod:`client.cli`: the ``spades`` command.
"""
