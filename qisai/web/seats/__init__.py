"""Engine seats: the engines a server offers and how one holds a seat of a
server game (:mod:`.opponents`: the seat, how it is asked for a move;
:mod:`.lineup`: the engines offered, by level; :mod:`.draws`: how an engine
answers a draw offer; :mod:`.opponent_names`: an engine seat's name).  Below
play: the hub seats them, and no seat knows the hub."""
