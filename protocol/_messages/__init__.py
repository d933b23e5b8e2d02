"""The parts of :mod:`protocol.messages`, split the way the data flows: shared value types
(:mod:`.common`), error codes, shared structures, events, client to server, server to
client, and what each minor version added. Import from :mod:`protocol.messages`, not from
here: the parts may move. Their errors are :mod:`protocol`'s (see :mod:`protocol.errors`).
"""
