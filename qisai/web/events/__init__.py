"""Events: every event format over one event model, one result path.

The formats are the competition layer's event model, shared with the
command line (:mod:`qisai.competition.events`: knock-out, team, group,
McMahon; individual round robins and Swiss are its
:class:`~qisai.competition.Tournament`).  Around them: :mod:`.model` (the
event behind its row and the checks every route makes), :mod:`.event_json` (an
event as JSON), :mod:`.server_games` (server games and their mirror rows),
:mod:`.results` (the one path every result takes), :mod:`.schemas` and
:mod:`.routes` (the API).  The pages are in :mod:`qisai.web.pages.events`.
"""
