"""The lobby, the arena's front door (issue 22): quick-pairing pools on the
rule book's time controls (:mod:`.controls`, :mod:`.pools`), leaderboards
and player search (:mod:`.players`), their routes in :mod:`.routes`; the
live boards of the running games multiplexed on one page socket
(:mod:`.live_boards`, :mod:`.feed`, :mod:`.socket`: ``/ws/lobby``), the
featured game ("TV") and the events calendar (:mod:`.calendar`).

A domain above ``play`` and ``events`` (it reads both, neither reads it);
the pages render what it gathers."""
