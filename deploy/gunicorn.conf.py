"""gunicorn's settings for the web tier: /srv/casino/app/deploy/gunicorn.conf.py.

casino-web.service starts ``gunicorn --config deploy/gunicorn.conf.py casino.wsgi:application``;
each setting can be changed from /etc/casino/env (GUNICORN_BIND, GUNICORN_WORKERS, ...).
"""

import multiprocessing
import os
from pathlib import Path

# nginx proxies to this address (deploy/nginx-casino.conf, upstream casino_web).
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8001")
# 2 x cores + 1 sync workers (docs/OPERATIONS.md "What runs").
workers = int(os.environ.get("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count() + 1))
# = nginx's proxy_read_timeout: a request past it is cut by both.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
max_requests = 5000
max_requests_jitter = 500
# journald keeps both (stdout/stderr); the app's own log lines are JSON (LOG_FORMAT).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = os.environ.get("GUNICORN_ERROR_LOG", "-")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'
# The client's address as nginx saw it is in X-Real-IP (LOGIN_CLIENT_IP_HEADER).
forwarded_allow_ips = "127.0.0.1,::1"


def on_starting(server):
    """Make PROMETHEUS_MULTIPROC_DIR and empty it of the figures of processes gone, before
    any worker writes its own: only at start, never while the service runs. The folder is
    shared with the Celery worker, whose live processes' files stay."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        return
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    for stored in path.glob("*.db"):
        pid = stored.stem.rsplit("_", 1)[-1]
        if not pid.isdigit() or not _alive(int(pid)):
            stored.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def child_exit(server, worker):
    """A worker gone: its live gauges leave the scrape."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
