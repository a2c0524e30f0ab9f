from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def new_keys() -> tuple[str, str]:
    """A VAPID key pair: the public key as browsers take it (an uncompressed
    P-256 point) and the raw private key, both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(public), b64url(key.private_numbers().private_value.to_bytes(32, "big"))


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push, as environment lines."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = new_keys()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}")
