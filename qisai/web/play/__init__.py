"""Play: server games and their referee, the live hub and its sockets,
engine opponents.  :mod:`.live` is a game in memory and its JSON views,
:mod:`.hub` the live games of a process, :mod:`.opponents` the engines,
:mod:`.rules` builds referee games from stored settings, :mod:`.records`
writes PGN and SGF; :mod:`.routes` and :mod:`.socket` are the API."""
