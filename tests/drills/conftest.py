"""The drills' clusters: ``clusters()`` makes one (``Cluster.initdb`` or
``Cluster.standby_of`` arguments, or ``empty=True``: a home and a port, no data directory
yet, for a restore to fill), and every cluster a test made is stopped and removed at its
end, passed or failed."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.drills.clusters import Cluster, scratch_dir


@pytest.fixture
def clusters() -> Iterator[Callable[..., Cluster]]:
    made: list[Cluster] = []

    def make(
        name: str, *, standby_of: Cluster | None = None, settings=(), empty: bool = False
    ) -> Cluster:
        if empty:
            cluster = Cluster(name, scratch_dir(f"drill-{name}-"))
        elif standby_of is None:
            cluster = Cluster.initdb(name, settings)
        else:
            cluster = Cluster.standby_of(standby_of, name, settings)
        made.append(cluster)
        return cluster

    yield make
    for cluster in reversed(made):
        cluster.remove()
