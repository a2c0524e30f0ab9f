from django.urls import path

from notifications import views

urlpatterns = [
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/read", views.mark_read, name="notifications_read"),
    path("notifications/push/subscribe", views.push_subscribe, name="push_subscribe"),
    path("notifications/push/unsubscribe", views.push_unsubscribe, name="push_unsubscribe"),
    path("sw.js", views.service_worker, name="service_worker"),
]
