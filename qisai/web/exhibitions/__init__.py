"""Exhibitions on the arena: simultaneous displays (``simuls``) and
blindfold seats (``blindfold``).  They create ordinary server games through
the play domain, so every verdict stays the referee's."""
