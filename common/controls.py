"""The characters and lengths refused in any text from outside, in one
place: ``monopoly_site.badinput`` refuses them at the door, and
``api.openapi`` states the same in the API's schema."""

from __future__ import annotations

# C0 controls, DEL and C1 controls, as regular expression ranges.
CONTROLS = r"\x00-\x1f\x7f-\x9f"
# The same less tab, line feed and carriage return: text that may have lines.
CONTROLS_BUT_LINES = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
# Lone surrogates: no UTF-8 decoder produces them, but ``errors="surrogateescape"``
# and JSON's \\ud800 can.
SURROGATES = r"\ud800-\udfff"
# The longest text any JSON field of the site takes (a push service's
# address, 1,000).
MAX_JSON_TEXT = 1000
