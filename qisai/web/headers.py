"""Security headers on every HTTP response of the arena.

* ``Content-Security-Policy`` (:data:`CSP`): scripts, styles, images,
  fonts and connections (the game socket included) from this host only; no
  inline script or style, no plug-ins, no ``<base>``, forms post here only,
  and no page may be framed (``frame-ancestors 'none'``: the resign and draw
  buttons cannot be clicked through someone else's page).  The pages' data
  (a game's state) sits in ``<script type="application/json">`` blocks,
  which are data, not script, and need no exception.  A response that sets
  its own policy keeps it (``/docs`` and ``/redoc``: Swagger UI starts from
  an inline script); the user manual has its own (:data:`MANUAL_CSP`).
* ``X-Frame-Options: DENY`` (older browsers), ``X-Content-Type-Options:
  nosniff``, ``Referrer-Policy: same-origin``, ``Cross-Origin-Opener-Policy:
  same-origin``.
* Cookies are ``Secure`` when the request came over HTTPS (the scheme as
  uvicorn sees it, which follows ``X-Forwarded-Proto`` from the trusted
  proxies only, ``QISAI_TRUSTED_PROXIES``) or when ``QISAI_SECURE_COOKIES``
  (or ``QISAI_COOKIE_SECURE``) is set.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "MANUAL_CSP", "PATH_POLICIES", "SECURITY_HEADERS", "SecurityHeadersMiddleware"]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
"""The arena's Content-Security-Policy (the API docs pages set their own)."""

MANUAL_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline'; "
              "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
              "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
              "form-action 'self'; frame-ancestors 'none'")
"""The built user manual's policy (``/manual``): MkDocs Material pages start
from inline scripts and style inline.  They are the project's own static
files, no user's text, so this host's inline code only; still no framing."""

PATH_POLICIES: tuple[tuple[str, str], ...] = (("/manual", MANUAL_CSP),)
"""(path prefix, policy): the parts of the site with a policy of their own."""

SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}
"""Set on every HTTP response that does not set them itself."""


class SecurityHeadersMiddleware:
    """Add :data:`SECURITY_HEADERS` to every HTTP response (pure ASGI, so
    streamed and static responses get them too), and mark its cookies
    ``Secure`` when ``secure_cookies`` or the request's scheme is https."""

    def __init__(self, app: ASGIApp, *, secure_cookies: bool = False) -> None:
        self.app = app
        self.secure_cookies = secure_cookies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = self.secure_cookies or scope.get("scheme") == "https"
        path = scope.get("path", "")
        policy = next((csp for prefix, csp in PATH_POLICIES
                       if path == prefix or path.startswith(prefix + "/")), CSP)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if "content-security-policy" not in headers:
                    headers["Content-Security-Policy"] = policy
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
                if secure:
                    cookies = headers.getlist("set-cookie")
                    if cookies:
                        del headers["set-cookie"]
                        for cookie in cookies:
                            if "secure" not in (p.strip().lower() for p in cookie.split(";")):
                                cookie += "; Secure"
                            headers.append("set-cookie", cookie)
            await send(message)

        await self.app(scope, receive, send_with_headers)
