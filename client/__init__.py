"""client: the prompt_toolkit terminal client and the ``spades`` command line."""
