"""The drills' clusters: ``clusters(name, ...)`` makes one, not started, and every cluster
a test made is stopped and removed at its end, passed or failed. Each is a cluster of its
own (its data directory, port and server), never shared with another test:

    clusters("site_a", migrated=True)                # the back office's ``casino`` migrated
    clusters("site_a", migrated=True, settings=REPLICATION)   # ... a primary to stream from
    clusters("primary", settings=REPLICATION)        # empty (``initdb``)
    clusters("standby", standby_of=primary, settings=REPLICATION)   # its base backup
    clusters("restored", empty=True)                 # a home and a port, no data directory
                                                     # yet, for a restore to fill

``migrated=True`` copies the run's template (tests/drills/template.py: migrated once per
test run, shared by the pytest-xdist workers) instead of running ``initdb`` and
``migrate``. ``settings`` are ``postgresql.conf`` lines (``"wal_level = replica"``,
``archive_command``, ...), added after the cluster's own port and socket directory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import pytest

from tests.drills.clusters import Cluster, scratch_dir
from tests.drills.template import migrated_template


@pytest.fixture
def clusters(request: pytest.FixtureRequest) -> Iterator[Callable[..., Cluster]]:
    made: list[Cluster] = []

    def make(
        name: str,
        *,
        migrated: bool = False,
        standby_of: Cluster | None = None,
        settings: Iterable[str] = (),
        empty: bool = False,
    ) -> Cluster:
        if sum((migrated, standby_of is not None, empty)) > 1:
            raise ValueError("a cluster is migrated, a standby or empty: one of them")
        if empty:
            cluster = Cluster(name, scratch_dir(f"drill-{name}-"))
        elif migrated:
            cluster = Cluster.copy_of(migrated_template(request.config), name, settings)
        elif standby_of is not None:
            cluster = Cluster.standby_of(standby_of, name, settings)
        else:
            cluster = Cluster.initdb(name, settings)
        made.append(cluster)
        return cluster

    yield make
    for cluster in reversed(made):
        cluster.remove()
