"""The house rule "no module over 500 lines" holds in protocol/, and the split modules
still offer every name they offered before (``protocol.messages``, ``protocol.examples``
gather their parts)."""

from __future__ import annotations

from pathlib import Path

import protocol
from protocol import examples
from protocol import messages as m

PACKAGE = Path(protocol.__file__).resolve().parent
MAX_LINES = 500


def test_no_module_of_the_protocol_package_is_over_500_lines() -> None:
    sizes = {
        str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    assert len(sizes) >= 20  # messages and examples are packages of parts now
    assert {name: lines for name, lines in sizes.items() if lines > MAX_LINES} == {}


def test_the_front_modules_offer_every_name_of_their_all() -> None:
    for module in (m, examples):
        missing = [name for name in module.__all__ if not hasattr(module, name)]
        assert missing == []
    assert len(m.__all__) == 75 + 14 + 6 and len(examples.__all__) == 16
    # the parts define what the front offers; nothing is defined twice
    assert m.Hello.__module__ == "protocol._messages.client"
    assert m.Welcome.__module__ == "protocol._messages.server"
    assert m.CLIENT_ADAPTER.validate_python({"type": "ping"}) == m.Ping()
