from django.urls import path

from notifications import views

urlpatterns = [
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/read", views.mark_read, name="notifications_read"),
]
