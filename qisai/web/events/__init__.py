"""Events: every event format over one event model, one result path.

The formats (no database, no HTTP): :mod:`.knockout`, :mod:`.team`,
:mod:`.group`, :mod:`.mcmahon` (individual round robins and Swiss are the
competition layer's own :class:`~qisai.competition.Tournament`), sharing
:mod:`.entries`.  Around them: :mod:`.model` (the event behind its row and
the checks every route makes), :mod:`.views` (an event as JSON),
:mod:`.boards` (server games and their mirror rows), :mod:`.results` (the
one path every result takes), :mod:`.schemas` and :mod:`.routes` (the
API).  The pages are in :mod:`qisai.web.pages.events`.
"""
