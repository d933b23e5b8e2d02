"""client: the prompt_toolkit terminal client and the ``spades`` command line.

- :mod:`client.model`: the model (latest view, table info, the legal actions of the
  pending ``your_turn``, selection, settings, log) and what every key does to it.
- :mod:`client.state`: folds the server's events into the model's view between snapshots.
- :mod:`client.render`: draws the model as formatted text, one function per region.
- :mod:`client.ui`: the layout (reads the model through callables) and the one key
  binding factory.
- :mod:`client.net`: the websocket task: hello (with the session token), read, redraw,
  reconnect; says why a server cannot be reached; TLS for ``wss://``.
- :mod:`client.session`: app + network in one loop; the embedded server for ``spades``.
- :mod:`client.replay`: ``spades replay RECORD``.
- :mod:`client.text`: untrusted text made safe to draw; the ``--ascii`` filter.
- :mod:`client.rules`: the rules in words (the rules screen, the create form's labels).
- :mod:`client.tokens`: session tokens kept between runs of ``spades play``.
- :mod:`client.cli`: the ``spades`` command.
"""
