"""The lobby: quick-pairing pools on the rule book's time controls
(:mod:`.controls`, :mod:`.pools`), leaderboards and player search
(:mod:`.players`); their routes in :mod:`.routes`."""
