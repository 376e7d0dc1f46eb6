"""The qisai web arena: FastAPI app, REST API, a WebSocket per game, pages.

>>> from qisai.web import create_app, Settings      # doctest: +SKIP
>>> app = create_app(Settings.from_env())           # doctest: +SKIP
"""

from qisai.web.app import create_app
from qisai.web.settings import Settings

__all__ = ["Settings", "create_app"]
