"""``/api/v1/``: the API's endpoints, its schema and its docs."""

from django.urls import path

from api.stream_routes import router as stream_router
from api.v1 import api

api.add_router("", stream_router)

urlpatterns = [path("", api.urls)]
