"""``/fair-dice/verify``: the page that checks a finished game's record in
the browser (``static/js/fair-verify.js``), for players with no
``manage.py``. The server only serves the page: the record never leaves the
reader's browser."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import engine


def rules_data() -> dict[str, Any]:
    """What the page's script needs of the rules: per preset, its deck
    edition and how many title deeds it deals (a record names its preset and
    the switches over it); per deck edition, the numbers of each deck's Get
    Out of Jail Free cards, which a player keeps, so that the page follows
    them only on their deck's first round."""
    presets = {}
    for name in engine.PRESETS:
        rules = engine.ruleset(name)
        presets[name] = {"decks": rules.decks, "deal_deeds": rules.deal_deeds}
    return {
        "presets": presets,
        "jail_free": {
            edition: [
                [i for i, card in enumerate(deck) if card[0] == engine.JAIL_FREE] for deck in decks
            ]
            for edition, decks in engine.DECKS.items()
        },
    }


def messages() -> dict[str, str]:
    """What the page's script says, translated here; {name} is filled in."""
    return {
        "ok": _("ok"),
        "fail": _("FAIL"),
        "checking": _("Checking…"),
        "summary_ok": _(
            "The record passes every check this page makes: the secret is the one committed "
            "to, and every throw and card it shows comes from the dice key."
        ),
        "summary_fail": _("The record does NOT pass: see the check that failed."),
        "name_record": _("record"),
        "name_generator": _("generator"),
        "name_secret": _("secret"),
        "name_commitment": _("commitment"),
        "name_key": _("dice key"),
        "name_outcomes": _("throws and cards"),
        "not_json": _("This is not JSON: paste or choose the record.json file as downloaded."),
        "not_a_record": _("A game record is a JSON object."),
        "no_webcrypto": _(
            "This browser offers no WebCrypto here (it needs https or localhost), so nothing "
            "was checked."
        ),
        "not_keyed": _("Only games on the keyed generator (blake2b-keyed) can be checked."),
        "no_secret": _("The record has no secret yet: the game is still running."),
        "bad_secret": _("The secret is not 32 to 64 bytes of hex."),
        "commitment_ok": _("SHA-256 of the secret is the commitment {commitment}."),
        "commitment_bad": _("SHA-256 of the secret is {digest}, NOT the commitment {commitment}."),
        "no_seeds": _(
            "The record has no player seeds: the dice were keyed by the secret alone (a game "
            "of site bots only, or one from before player seeds). Then the site could have "
            "chosen its secret to suit it."
        ),
        "bad_seeds": _('The seeds are not one hex string, "" or null per player.'),
        "key_ok": _(
            "HMAC-SHA256 of the secret and the seeds of the {seats} seats ({given} gave one, "
            "{none} gave none, {bots} site bots) is {key}."
        ),
        "unknown_rules": _("Unknown rules {rules}: this page cannot follow their decks."),
        "no_outcomes": _("The record lists no throws and cards (outcomes) to check."),
        "outcomes_ok": _(
            "{throws} throws and {cards} cards follow from the dice key ({unchecked} later "
            "draws of a Get Out of Jail Free card not followed)."
        ),
        "throw_differs": _(
            "Outcome {n}: the record shows the throw {shown}, the dice key gives {want}."
        ),
        "card_differs": _(
            "Outcome {n}: the record shows card {shown} of deck {deck}, the dice key gives "
            "card {want}."
        ),
        "bad_outcome": _("Outcome {n} is not a throw or a card this page knows."),
        "seat_bot": _("a site bot's seat, adds no seed"),
        "seat_none": _("gave NO seed (added nothing)"),
    }


@require_GET
def verify(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"say": messages(), "rules": rules_data()}
    return render(request, "fair_dice_verify.html", context)
