"""``/api/v1/``: the API's endpoints, its schema and its docs."""

from django.urls import path

from api.v1 import api

urlpatterns = [path("", api.urls)]
