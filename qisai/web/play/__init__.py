"""Play: server games and their referee, the live hub and its sockets.
:mod:`.live` is a game in memory and its JSON views, :mod:`.hub` the live
games of a process and the one way in for an action, :mod:`.referee_games`
builds referee games from stored settings, :mod:`.downloads` writes a
game's PGN and SGF; :mod:`.routes` and :mod:`.socket` are the API.  The
engines that hold a seat are :mod:`qisai.web.seats`'."""
