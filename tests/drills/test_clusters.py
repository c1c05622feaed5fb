"""The drills' clusters themselves: a primary and its streaming standby, made, started,
replicating, promoted and removed; copies of the run's migrated template, each its own."""

from __future__ import annotations

import pytest

from tests.drills.clusters import REPLICATION, Cluster, wait_for


def test_a_standby_follows_its_primary_and_takes_over_when_promoted(clusters):
    primary = clusters("primary", settings=REPLICATION)
    primary.start()
    primary.sql("CREATE TABLE drill (n int)")
    standby = clusters("standby", standby_of=primary, settings=REPLICATION)
    standby.start()
    primary.sql("INSERT INTO drill VALUES (1), (2)")

    assert standby.sql("SELECT pg_is_in_recovery()") == [(True,)]
    assert wait_for(lambda: standby.sql("SELECT count(*) FROM drill") == [(2,)])

    primary.stop("immediate")
    standby.promote()
    assert standby.sql("SELECT pg_is_in_recovery()") == [(False,)]
    standby.sql("INSERT INTO drill VALUES (3)")
    assert standby.sql("SELECT count(*) FROM drill") == [(3,)]


def test_a_removed_cluster_leaves_nothing_behind(clusters):
    cluster = clusters("gone")
    cluster.start()
    home = cluster.home
    cluster.remove()
    assert not home.exists()
    assert not Cluster("gone", home).running()


@pytest.mark.slow
def test_migrated_clusters_are_copies_of_their_own(clusters):
    first = clusters("first", migrated=True)
    second = clusters("second", migrated=True)
    first.start()
    second.start()
    assert first.port != second.port
    applied = "SELECT count(*) FROM django_migrations"
    assert first.sql(applied, "casino") == second.sql(applied, "casino") != [(0,)]

    first.sql("CREATE TABLE drill (n int)", "casino")
    assert second.sql("SELECT to_regclass('drill')", "casino") == [(None,)]
