"""Events of every format: the one event model of the command line (one
file each) and of the arena (one database row each).

* :class:`EventFile` (:mod:`.file`): the file: an event of any kind with its
  header, penalties (18.1-18.4), play-offs (15.6) and entry details;
* :func:`create_event` (:mod:`.create`): make and start one from entries;
* the event models: :class:`KnockoutEvent`, :class:`GroupEvent`,
  :class:`TeamEvent`, :class:`McMahonTournament` (and the individual
  :class:`~qisai.competition.tournament.Tournament`);
* :mod:`.views`: their rounds, standings, crosstables and brackets as rows.

The event models came down from the arena (``qisai/web/events/``), which
now imports them from here and stores each event's ``to_dict()`` in its
row.

Import the submodules directly; this package imports nothing at import
time so that ``qisai --help`` stays fast.
"""
