from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "monopoly_site.settings")
# This server process pools its database connections (settings.py says why);
# the variable is removed again so that nothing started from here inherits it.
_pool = "DATABASE_POOL" not in os.environ
if _pool:
    os.environ["DATABASE_POOL"] = "true"
# Django must be set up before anything imports models (consumers, routing).
django_asgi_app = get_asgi_application()
if _pool:
    del os.environ["DATABASE_POOL"]

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from monopoly_site.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
