from django.urls import path

from live import views

urlpatterns = [
    path("games/<str:public_id>/chat/<str:room>", views.post_message, name="live_chat_post"),
    path("watch/", views.watch, name="watch"),
    path("watch/finished/", views.watch_finished, name="watch_finished"),
]
