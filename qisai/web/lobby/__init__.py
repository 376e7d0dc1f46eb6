"""The arena's front door (issue 22): live boards of the running games
multiplexed on one page socket (``/ws/lobby``), the featured game ("TV")
and the events calendar.

A domain of its own above ``play`` and ``events`` (it reads both, neither
reads it); the pages render what it gathers.
"""
