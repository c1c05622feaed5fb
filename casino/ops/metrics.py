"""The casino's own figures for Prometheus, counted from the database at each scrape.

Counted rather than incremented in each process: a count from the tables is exact whatever
the number of gunicorn and Celery processes, survives their restarts, and adds no line to
the services that write the rows. What no table keeps (a settle's duration, the requests)
is measured in the process (``casino.kernel.metrics``). The queries are counts over indexed
columns, read on the report replica when there is one; a scrape every 15 s or more.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import (
    Aggregate,
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    Q,
    QuerySet,
    Sum,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from casino.cage.models import Slip, SlipStatus
from casino.floor.models import Round, TableSession
from casino.integrity.models import FluctuationInvestigation, IntegrityRun
from casino.kernel.replicas import replica_reads
from casino.reports.models import ShiftReport
from casino.staff.models import LoginAttempt

#: The report build's histogram buckets (seconds).
REPORT_BUCKETS = (1, 5, 15, 30, 60, 120, 300, 600)
LOCKOUTS = (LoginAttempt.Outcome.LOCKED_OUT, LoginAttempt.Outcome.ADDRESS_LOCKED_OUT)


class DomainCollector(Collector):
    """Rounds settled, open sessions, slips waiting, report builds, integrity, lockouts, queues."""

    def collect(self) -> Iterator[Metric]:
        with replica_reads():
            yield from self._floor()
            yield from self._cage()
            yield from self._reports()
            yield from self._integrity()
            yield from self._logins()
        yield self._queues()

    def _floor(self) -> Iterator[Metric]:
        yield _grouped(
            CounterMetricFamily(
                "casino_rounds_settled",
                "Rounds settled, by venue (a settled round voided later stays counted).",
                labels=["venue"],
            ),
            # settled_at stays when a settled round is voided: the count never goes back
            Round.objects.filter(settled_at__isnull=False),
            "session__table__venue__code",
        )
        yield _grouped(
            GaugeMetricFamily(
                "casino_open_sessions", "Table sessions open, by venue.", labels=["venue"]
            ),
            TableSession.objects.filter(status=TableSession.Status.OPEN),
            "table__venue__code",
        )

    def _cage(self) -> Iterator[Metric]:
        yield _grouped(
            GaugeMetricFamily(
                "casino_slips_waiting",
                "Fills and credits not yet verified, by venue and status (requested, issued).",
                labels=["venue", "status"],
            ),
            Slip.objects.filter(status__in=[SlipStatus.REQUESTED, SlipStatus.ISSUED]),
            "venue__code",
            "status",
        )

    def _reports(self) -> Iterator[Metric]:
        took = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
        built = ShiftReport.objects.filter(
            status=ShiftReport.Status.DONE, started_at__isnull=False, finished_at__isnull=False
        ).annotate(took=took)
        counts = built.aggregate(
            total=Count("id"),
            seconds=Sum("took"),
            **{
                f"le_{bound}": Count("id", filter=Q(took__lte=timedelta(seconds=bound)))
                for bound in REPORT_BUCKETS
            },
        )
        seconds = counts["seconds"].total_seconds() if counts["seconds"] else 0.0
        buckets = [(str(float(bound)), counts[f"le_{bound}"]) for bound in REPORT_BUCKETS]
        yield HistogramMetricFamily(
            "casino_report_build_seconds",
            "Seconds a report build took, from its start to its files (builds done).",
            buckets=[*buckets, ("+Inf", counts["total"])],
            sum_value=seconds,
        )

    def _integrity(self) -> Iterator[Metric]:
        yield _grouped(
            CounterMetricFamily(
                "casino_integrity_alerts",
                "Alerts raised by the integrity runs done, by venue.",
                labels=["venue"],
            ),
            IntegrityRun.objects.filter(status=IntegrityRun.Status.DONE),
            "venue__code",
            figure=Sum("alerts"),
        )
        yield _grouped(
            GaugeMetricFamily(
                "casino_investigations_open",
                "Fluctuation investigations not closed, by venue.",
                labels=["venue"],
            ),
            FluctuationInvestigation.objects.exclude(status=FluctuationInvestigation.Status.CLOSED),
            "venue__code",
        )

    def _logins(self) -> Iterator[Metric]:
        lockouts = CounterMetricFamily(
            "casino_login_lockouts",
            "Logins refused by the lockout, by which limit was reached.",
            labels=["outcome"],
        )
        counts = dict(
            LoginAttempt.objects.filter(outcome__in=LOCKOUTS)
            .values_list("outcome")
            .annotate(n=Count("id"))
            .order_by()
        )
        for outcome in LOCKOUTS:
            lockouts.add_metric([outcome.value], counts.get(outcome, 0))
        yield lockouts

    def _queues(self) -> Metric:
        depth = GaugeMetricFamily(
            "casino_celery_queue_length", "Messages waiting in a Celery queue.", labels=["queue"]
        )
        if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
            return depth  # eager (no broker) or another transport: nothing to read
        from casino.celery import app

        with app.connection_for_read() as connection:
            client = connection.default_channel.client
            for queue in _queue_names():
                depth.add_metric([queue], client.llen(queue))
        return depth


def _grouped(family: Any, rows: QuerySet, *labels: str, figure: Aggregate | None = None) -> Metric:
    """``family`` with one sample per group of ``rows`` by ``labels`` (in the family's label
    order): the group's count, or ``figure`` (an aggregate) where given."""
    for row in rows.values(*labels).annotate(n=figure or Count("id")).order_by():
        family.add_metric([row[label] for label in labels], row["n"] or 0)
    return family


def _queue_names() -> list[str]:
    from casino.celery import app

    return [app.conf.task_default_queue]
