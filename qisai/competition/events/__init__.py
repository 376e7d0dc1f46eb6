"""Events of every format kept in one file each (the command line's model).

* :class:`EventFile` (:mod:`.file`): the file: an event of any kind with its
  header, penalties (18.1-18.4), play-offs (15.6) and entry details;
* :func:`create_event` (:mod:`.create`): make and start one from entries;
* the event models: :class:`KnockoutEvent`, :class:`GroupEvent`,
  :class:`TeamEvent`, :class:`McMahonTournament` (and the individual
  :class:`~qisai.competition.tournament.Tournament`);
* :mod:`.views`: their rounds, standings, crosstables and brackets as rows.

Import the submodules directly; this package imports nothing at import
time so that ``qisai --help`` stays fast.
"""
