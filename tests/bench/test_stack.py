"""The bench stack's HTTP switch (bench/stack.py ``http=``): the sockets and
the API's streams always reach a Daphne, every other request the chosen
server, whose processes report their CPU as the kind ``http``."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import BASE_DIR

if str(BASE_DIR / "bench") not in sys.path:
    sys.path.insert(0, str(BASE_DIR / "bench"))
stack: Any = importlib.import_module("stack")


def conf_for(tmp_path: Path, http: str) -> str:
    site = stack.Stack(name="t", http=http, tmp=tmp_path)
    site.daphne_ports = [9001, 9002]
    site.http_ports = [] if http == "daphne" else [9101, 9102]
    site.lb_port = 9000
    return site._nginx_conf().read_text()


def location(conf: str, prefix: str) -> str:
    """The block of the first location whose line starts with ``prefix``."""
    start = conf.index(f"location {prefix}")
    return conf[start : conf.index("}", start)]


def test_with_a_second_server_sockets_and_streams_go_to_the_daphnes_the_rest_to_it(
    tmp_path: Path,
) -> None:
    conf = conf_for(tmp_path, "gunicorn")
    sockets = conf[conf.index("upstream sockets") :]
    sockets = sockets[: sockets.index("}")]
    assert "9001" in sockets and "9002" in sockets and "910" not in sockets
    site = conf[conf.index("upstream site") :]
    site = site[: site.index("}")]
    assert "9101" in site and "9102" in site and "900" not in site
    assert "proxy_pass http://sockets" in location(conf, "/ws/")
    streams = location(conf, "~ ^/api/v1/")
    assert "proxy_pass http://sockets" in streams and "stream" in streams
    rest = conf[conf.index("location / {") :]
    assert "proxy_pass http://site" in rest[: rest.index("location /@post/")]
    assert "proxy_pass http://site" in location(conf, "/@post/")


def test_with_daphne_alone_every_request_goes_to_the_daphnes(tmp_path: Path) -> None:
    conf = conf_for(tmp_path, "daphne")
    assert "upstream sockets" not in conf and "location /ws/" not in conf
    site = conf[conf.index("upstream site") :]
    assert "9001" in site[: site.index("}")] and "9002" in site[: site.index("}")]


@pytest.mark.skipif(stack.NGINX is None, reason="nginx is not installed")
def test_the_split_configuration_is_one_nginx_accepts(tmp_path: Path) -> None:
    conf_for(tmp_path, "uvicorn")
    check = subprocess.run(
        [stack.NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert check.returncode == 0, check.stderr


def test_a_second_server_without_nginx_is_refused_before_anything_starts(tmp_path: Path) -> None:
    site = stack.Stack(name="t", http="uvicorn", use_nginx=False)
    with pytest.raises(RuntimeError, match="needs nginx"):
        site.start()
    shutil.rmtree(site.tmp, ignore_errors=True)
    assert not site.procs


def test_each_server_command_names_the_site_and_its_port() -> None:
    assert "monopoly_site.asgi:application" in stack.uvicorn_args("127.0.0.1", 8123)
    assert "none" in stack.uvicorn_args("127.0.0.1", 8123)  # no WebSockets: Daphne's
    assert "127.0.0.1:8123" in stack.gunicorn_args("127.0.0.1", 8123)
    assert "monopoly_site.wsgi:application" in stack.gunicorn_args("127.0.0.1", 8123)


def test_the_second_servers_report_their_cpu_as_http() -> None:
    site = stack.Stack(name="t", http="uvicorn")
    assert site.process_kind("http0") == "http" == site.process_kind("http1")
    assert site.process_kind("daphne1") == "daphne"
