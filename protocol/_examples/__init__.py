"""The parts of :mod:`protocol.examples`: the example game, one example of each message,
and the example session (its player and its story). Import from :mod:`protocol.examples`,
not from here: the parts may move. Their errors are :mod:`protocol`'s.
"""
