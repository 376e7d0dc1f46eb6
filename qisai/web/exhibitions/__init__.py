"""Exhibitions on the arena: simultaneous displays (``simuls``), blindfold
seats (``blindfold``) and consultation sides (会商: ``consult``,
``consult_routes``, ``group_games``).  They create ordinary server games
through the play domain, so every verdict stays the referee's."""
