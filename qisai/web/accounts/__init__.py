"""Accounts: registration, log-in (password or guest), sessions and roles
(organiser; arbiter per event).  :mod:`.deps` says who is asking;
:mod:`.routes` is the ``/api/auth`` and ``/api/me`` API."""
