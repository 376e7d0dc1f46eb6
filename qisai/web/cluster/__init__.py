"""The arena among several server processes (issue 15): the hub of one
process among several (:mod:`.cluster_hub`), the relay of stored changes
between them (:mod:`.relay`) and the queue of engine moves played on
``qisai worker`` machines (:mod:`.remote_engines`).  Above play: it wraps
the hub; play knows none of it."""
