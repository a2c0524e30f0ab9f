from django.urls import path

from games.web import (
    analysis_views,
    challenge_views,
    play_views,
    replay_views,
    square_views,
    timer_views,
    views,
)

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/create", views.create_game, name="create_game"),
    path("lobby/switches", views.lobby_switches, name="lobby_switches"),
    path("join/<str:token>/", views.game_invite, name="game_invite"),
    path("games/<str:public_id>/", views.game_detail, name="game_detail"),
    path("games/<str:public_id>/join", views.join, name="game_join"),
    path("games/<str:public_id>/leave", views.leave, name="game_leave"),
    path(
        "games/<str:public_id>/suggested-orders",
        views.suggested_orders,
        name="game_suggested_orders",
    ),
    path("games/<str:public_id>/seed", views.set_seed, name="game_seed"),
    path("games/<str:public_id>/bots/add", views.add_bot, name="game_add_bot"),
    path("games/<str:public_id>/bots/remove", views.remove_bot, name="game_remove_bot"),
    path("games/<str:public_id>/start", views.start, name="game_start"),
    path("games/<str:public_id>/challenge", challenge_views.challenge, name="game_challenge"),
    path(
        "challenges/<str:challenge_id>/",
        challenge_views.challenge_detail,
        name="challenge_detail",
    ),
    path(
        "challenges/<str:challenge_id>/<str:answer>",
        challenge_views.challenge_answer,
        name="challenge_answer",
    ),
    path("games/<str:public_id>/invite/rotate", views.rotate_invite, name="game_rotate_invite"),
    path("games/<str:public_id>/replay/", replay_views.replay, name="game_replay"),
    path("games/<str:public_id>/record.json", replay_views.record_json, name="game_record"),
    path(
        "games/<str:public_id>/analysis.json",
        analysis_views.analysis_json,
        name="game_analysis_json",
    ),
    path("games/<str:public_id>/act", play_views.game_act, name="game_act"),
    path("games/<str:public_id>/resign", play_views.game_resign, name="game_resign"),
    path("games/<str:public_id>/square/<int:sq>", square_views.square, name="game_square"),
    path("games/<str:public_id>/regions", play_views.game_regions, name="game_regions"),
    path("games/<str:public_id>/reclaim", timer_views.reclaim, name="game_reclaim"),
    path("games/<str:public_id>/orders", timer_views.standing_orders, name="game_orders"),
    path("settings/vacation", timer_views.vacation, name="vacation"),
]
