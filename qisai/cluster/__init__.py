"""The arena beyond one process (issue 15): what several ``qisai serve``
processes and ``qisai worker`` machines share besides the database.

* :mod:`~qisai.cluster.bus`: the Redis connection of a process, the pub/sub
  channel every stored change of a game is published on, and the clock
  leases (which process ticks which game);
* :mod:`~qisai.cluster.metrics`: the Prometheus metrics of a server process.

Everything here is optional: without ``QISAI_REDIS_URL`` the arena is one
process as before (its database the one truth, its sockets its own).
This package sits beside the store, below the web arena; it knows nothing of
games beyond their ids and opaque JSON messages.
"""

from qisai.cluster.config import redis_url

__all__ = ["redis_url"]
