"""The Prometheus metrics of one server process (``GET /metrics``), through
the maintained client library ``prometheus_client``.

Each app has its own registry (several apps may live in one interpreter,
as in the tests), so nothing here is global.  Gauges that describe the
process's present (live games, sockets, queue depth) are read when scraped,
through the callables the app passes in: they never drift from the truth.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.metrics_core import Metric

__all__ = ["CONTENT_TYPE", "Metrics"]

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5,
                   1.0, 2.5, 5.0)
"""Seconds: a move is stored and acknowledged in milliseconds; the upper
buckets catch a database or Redis in trouble."""


class Metrics:
    """The metrics of one server process.

    ``live_games``, ``loaded_games``, ``sockets`` and ``queue_depth`` are read at each scrape
    (``queue_depth`` may return ``None`` when there is no queue: the gauge
    then reads 0).
    """

    def __init__(self, *, live_games: Callable[[], int], sockets: Callable[[], int],
                 loaded_games: Callable[[], int] = lambda: 0,
                 queue_depth: Callable[[], int | None] = lambda: None) -> None:
        self.registry = CollectorRegistry()
        self.moves = Counter("qisai_moves", "Moves and passes stored by this process",
                             registry=self.registry)
        """Its rate is moves per second (``rate(qisai_moves_total[1m])``)."""
        self.move_latency = Histogram(
            "qisai_move_latency_seconds",
            "From a move's arrival to its acknowledgement (stored and broadcast)",
            buckets=LATENCY_BUCKETS, registry=self.registry)
        self.loop_lag = Histogram(
            "qisai_event_loop_lag_seconds",
            "How late the event loop woke a 0.1 s timer (every move, page and socket "
            "of the process waits that long)",
            buckets=LATENCY_BUCKETS, registry=self.registry)
        self.relayed = Counter("qisai_relayed_updates",
                               "Updates of other processes relayed to this process's sockets",
                               registry=self.registry)
        Gauge("qisai_live_games", "Games in play loaded in this process (not finished)",
              registry=self.registry).set_function(lambda: float(live_games()))
        Gauge("qisai_loaded_games", "Games held in this process's memory (finished ones too, "
              "while someone follows them)",
              registry=self.registry).set_function(lambda: float(loaded_games()))
        Gauge("qisai_sockets", "Game sockets open on this process",
              registry=self.registry).set_function(lambda: float(sockets()))
        Gauge("qisai_queue_depth", "Engine jobs waiting in the worker queue",
              registry=self.registry).set_function(lambda: float(queue_depth() or 0))

        self.requests = Histogram(
            "qisai_http_request_duration_seconds",
            "HTTP requests from arrival to the end of the answer, by method, route "
            "(its template, never the raw path) and status class",
            ["method", "route", "status"], buckets=LATENCY_BUCKETS, registry=self.registry)
        self.database_up = Gauge("qisai_database_up",
                                 "1 if the database answered at the last scrape, else 0",
                                 registry=self.registry)
        self.redis_up = Gauge("qisai_redis_up", "1 if Redis answered at the last scrape, else 0 "
                              "(absent without Redis)", registry=self.registry)
        self.leases_held = Gauge("qisai_leases_held",
                                 "Clock leases this process holds (games it ticks)",
                                 registry=self.registry)
        self.lease_takeovers = Counter(
            "qisai_lease_takeovers", "Clock leases taken over from a process that let "
            "them expire (it died or hung)", registry=self.registry)
        self.relay_lag = Histogram(
            "qisai_relay_lag_seconds", "From another process's publish to this process's "
            "receipt of a game's change (wall clocks of both: keep them synchronised)",
            buckets=LATENCY_BUCKETS, registry=self.registry)
        self.resyncs = Counter("qisai_resyncs", "Games found behind the database and reloaded, "
                               "their sockets told", registry=self.registry)
        # CPU seconds, resident memory, open files ... of this process.
        ProcessCollector(registry=self.registry)
        self.process = f"{socket.gethostname()}:{os.getpid()}"
        """This process's label on every sample (``--workers N`` answers from N processes
        in turn on one port: the label tells their series apart)."""

    def observe_move(self, seconds: float) -> None:
        """Count one stored move that took ``seconds`` to acknowledge."""
        self.moves.inc()
        self.move_latency.observe(seconds)

    def text(self) -> bytes:
        """Return every metric in Prometheus's text format, each sample
        labelled with ``process``."""
        return generate_latest(_Labelled(self.registry, self.process))


class _Labelled:
    """A registry's metrics with one more label on every sample."""

    def __init__(self, registry: CollectorRegistry, process: str) -> None:
        self.registry = registry
        self.process = process

    def collect(self) -> Iterator[Metric]:
        for family in self.registry.collect():
            family.samples = [s._replace(labels={**s.labels, "process": self.process})
                              for s in family.samples]
            yield family
