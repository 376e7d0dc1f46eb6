"""The entry abusers of ``bench/arena_abuse.py`` (issue 31): registration
spam, consultation spam and simul joins.

* ``register``: accounts that register from the calendar again and again:
  a team naming other accounts (an invitation; one waits per sender), the
  invited answering yes or no, registering for an individual event that is
  open, listing their invitations;
* ``consult``: guest sessions that create consultation games naming other
  accounts, as many as the server takes (a new guest when refused);
* ``simul``: guest sessions that join and leave an open simul in a loop,
  and ask for their own handicap (refused); a new guest when refused.

:func:`setup` makes what they need on the running server: an organiser
(the ``qisai role`` command on its data folder), a team event and an
individual event open for registration, and an open simul.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Protocol

import arena_load
import httpx

__all__ = ["ENTRY_KINDS", "abuse_consult", "abuse_register", "abuse_simul", "setup"]

ENTRY_KINDS = ("register", "consult", "simul")
PASSWORD = "plum blossom over frozen river"


class Tally(Protocol):
    def add(self, kind: str, what: str) -> None: ...


async def _account(client: httpx.AsyncClient, name: str) -> tuple[int, dict[str, str]]:
    r = await client.post("/api/auth/register", json={"username": name, "password": PASSWORD})
    r.raise_for_status()
    client.cookies.clear()
    return r.json()["user"]["id"], {"Authorization": f"Bearer {r.json()['token']}"}


async def setup(base: str, data: Path, address: str) -> dict[str, Any]:
    """Make an organiser, an open team event, an open individual event and
    an open simul on the server at ``base`` (data folder ``data``); return
    their ids and a few accounts to name (``ids``, ``names``)."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, timeout=60, transport=transport) as client:
        _, org = await _account(client, "benchorg")
        done = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-c", arena_load.LAUNCH, "role", "benchorg",
                             "organiser", "--data-dir", str(data)],
            capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"qisai role: {done.stderr.strip()}")
        out: dict[str, Any] = {"ids": [], "names": []}
        for i in range(6):  # accounts the spammers name
            uid, _ = await _account(client, f"named{i}")
            out["ids"].append(uid)
            out["names"].append(f"named{i}")
        for key, body in (("team_event", {"name": "Spam cup", "system": "team_round_robin",
                                          "boards": 2}),
                          ("event", {"name": "Spam open", "system": "swiss", "rounds": 5})):
            r = await client.post("/api/tournaments", json=body, headers=org)
            r.raise_for_status()
            out[key] = r.json()["id"]
            (await client.put(f"/api/tournaments/{out[key]}/listing",
                              json={"registration": "open"}, headers=org)).raise_for_status()
        r = await client.post("/api/simuls", json={"name": "Spam simul", "max_boards": 120},
                              headers=org)
        r.raise_for_status()
        out["simul"] = r.json()["id"]
    return out


async def abuse_register(base: str, addr: str, stop: asyncio.Event, tally: Tally,
                         ctx: dict[str, Any], rng: random.Random) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=addr)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as client:
        try:
            tag = addr.rsplit(".", 1)[1]
            (_, me), (_, partner) = [await _account(client, f"spam{tag}x{i}") for i in (0, 1)]
        except httpx.HTTPError as exc:
            tally.add("register", f"sign-up {type(exc).__name__}")
            return
        teams = f"/api/tournaments/{ctx['team_event']}"
        single = f"/api/tournaments/{ctx['event']}"
        while not stop.is_set():
            try:
                pick = rng.random()
                if pick < 0.5:
                    members = [f"spam{tag}x0", f"spam{tag}x1", *rng.sample(ctx["names"], 2)]
                    r = await client.post(f"{teams}/register", headers=me, json={
                        "team": {"name": f"T{tag}-{rng.randrange(10**6)}", "members": members}})
                    tally.add("register", f"team {r.status_code}")
                elif pick < 0.7:
                    mine = (await client.get(f"{teams}/invitations", headers=partner)).json()
                    for inv in mine[:1]:
                        r = await client.post(f"{teams}/invitations/answer", headers=partner,
                                              json={"team": inv["team"],
                                                    "accept": rng.random() < 0.5})
                        tally.add("register", f"answer {r.status_code}")
                else:
                    r = await client.post(f"{single}/register", json={}, headers=me)
                    tally.add("register", f"single {r.status_code}")
            except (httpx.HTTPError, ValueError) as exc:
                tally.add("register", type(exc).__name__)
            await asyncio.sleep(0.02)


async def _guest(client: httpx.AsyncClient, tally: Tally, kind: str) -> dict[str, str] | None:
    form = await client.get("/api/auth/csrf")
    r = await client.post("/api/auth/guest", headers={"X-CSRF-Token": form.json()["csrf"]})
    tally.add(kind, f"guest {r.status_code}")
    if r.status_code != 201:
        return None
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def abuse_consult(base: str, addr: str, stop: asyncio.Event, tally: Tally,
                        ctx: dict[str, Any], rng: random.Random) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=addr)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as client:
        headers, me = None, 0
        while not stop.is_set():
            try:
                if headers is None:
                    headers = await _guest(client, tally, "consult")
                    if headers is not None:
                        me = (await client.get("/api/me", headers=headers)).json()["id"]
                    await asyncio.sleep(0.2)
                    continue
                body = {"members": [me, *rng.sample(ctx["ids"], 3)],
                        "opponent": "engine" if rng.random() < 0.3 else "human"}
                r = await client.post("/api/consultations", json=body, headers=headers)
                tally.add("consult", str(r.status_code))
                if r.status_code == 429:
                    headers = None  # a new guest session, as a spammer would
            except (httpx.HTTPError, ValueError, KeyError) as exc:
                tally.add("consult", type(exc).__name__)
            await asyncio.sleep(0.02)


async def abuse_simul(base: str, addr: str, stop: asyncio.Event, tally: Tally,
                      ctx: dict[str, Any], rng: random.Random) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=addr)
    url = f"/api/simuls/{ctx['simul']}"
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as client:
        headers = None
        while not stop.is_set():
            try:
                if headers is None:
                    headers = await _guest(client, tally, "simul")
                    await asyncio.sleep(0.2)
                    continue
                pick = rng.random()
                if pick < 0.45:
                    r = await client.post(f"{url}/join", json={}, headers=headers)
                elif pick < 0.55:
                    r = await client.post(f"{url}/join", json={"handicap": 9}, headers=headers)
                elif pick < 0.95:
                    r = await client.post(f"{url}/leave", headers=headers)
                else:
                    r = await client.get(url, headers=headers)
                tally.add("simul", f"{r.request.url.path.rsplit('/', 1)[1]} {r.status_code}")
                if r.status_code == 429:
                    headers = None  # a new guest session, as a spammer would
            except (httpx.HTTPError, ValueError) as exc:
                tally.add("simul", type(exc).__name__)
            await asyncio.sleep(0.02)
