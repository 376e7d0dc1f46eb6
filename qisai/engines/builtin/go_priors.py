"""The tree priors of qisai's built-in Go engine, with the ladder reading
they rely on.

A new tree node gets a prior ("virtual" wins and visits) from tactics
(capture, escape, ladders, self-atari), shape
(:mod:`~qisai.engines.builtin.go_patterns`), the common-fate-graph distance
to the last move and the height of moves in empty areas.  The search
(:mod:`~qisai.engines.builtin.go_search`) adds the prior to the node's
UCT statistics.
"""

from __future__ import annotations

from qisai.engines.builtin.go_patterns import TABLE as _PATTERN
from qisai.engines.builtin.go_playout import BLACK, BORDER, EMPTY, WHITE, Playout

__all__ = ["ladder_captures", "priors"]

# Priors, in virtual playouts: (visits, wins) added to a new node.
PRIOR_EVEN = (10, 5)
PRIOR_CAPTURE_ONE = (15, 15)
PRIOR_CAPTURE_MANY = (30, 30)
PRIOR_ESCAPE = (20, 20)
PRIOR_LADDER_ATTACK = (20, 20)
PRIOR_FUTILE = (20, 0)
"""Extending a group that the ladder catches anyway."""
PRIOR_SELF_ATARI = (10, 0)
PRIOR_SELF_ATARI_BIG = (30, 0)
PRIOR_PATTERN = (10, 10)
PRIOR_CFG = ((24, 24), (22, 22), (8, 8))
"""By common-fate-graph distance 1, 2, 3 from the last move."""
PRIOR_LOW_EMPTY = (10, 0)
"""A first- or second-line move with no stone within three points."""
PRIOR_THIRD_EMPTY = (10, 10)


# ------------------------------------------------------------------ tactics
def ladder_captures(pos: Playout, stone: int, depth: int = 0) -> bool:
    """Whether the group at ``stone``, in atari with its owner to move,
    is lost: it can neither capture a neighbour in atari nor extend to three
    liberties, and the attacker keeps it in atari (a ladder, 征子) until it
    dies.  Reads on copies; ``pos`` is unchanged."""
    cells = pos.cells
    gid = pos.gid
    libs = pos.libs
    root = gid[stone]
    group_libs = libs[root]
    if group_libs is None or len(group_libs) != 1:
        return False
    attacker = 3 - cells[stone]
    nb = pos.neighbours
    for s in pos.stones[root]:  # type: ignore[union-attr]
        for t in nb[s]:
            if cells[t] == attacker and len(libs[gid[t]]) == 1:  # type: ignore[arg-type]
                return False  # a counter-capture: assume it escapes
    (lib,) = group_libs
    if depth > 40:
        return False  # too long to read: assume it escapes
    if not pos.legal(lib):
        return True
    escaped = pos.copy()
    escaped.place(lib)
    after = escaped.libs[escaped.gid[stone]]
    assert after is not None
    if len(after) >= 3:
        return False
    if len(after) <= 1:
        return True
    for atari in list(after):
        if not escaped.legal(atari):
            continue
        chase = escaped.copy()
        chase.place(atari)
        if chase.libs[chase.gid[atari]] and len(chase.libs[chase.gid[atari]]) == 1:  # type: ignore[arg-type]
            continue  # the chasing stone is itself in atari: it would be taken
        if ladder_captures(chase, stone, depth + 1):
            return True
    return False


def _cfg_distances(pos: Playout, start: int, limit: int) -> dict[int, int]:
    """Return the common-fate-graph distance (a whole group is one step)
    from ``start`` to each point within ``limit``."""
    cells = pos.cells
    gid = pos.gid
    nb = pos.neighbours
    dist = {start: 0}
    frontier = [start]
    if cells[start] in (BLACK, WHITE):
        frontier = list(pos.stones[gid[start]] or [start])
        for s in frontier:
            dist[s] = 0
    d = 0
    while frontier and d < limit:
        d += 1
        nxt: list[int] = []
        for p in frontier:
            for q in nb[p]:
                if q in dist or cells[q] == BORDER:
                    continue
                if cells[q] == EMPTY:
                    dist[q] = d
                    nxt.append(q)
                else:
                    for s in pos.stones[gid[q]]:  # type: ignore[union-attr]
                        dist[s] = d
                        nxt.append(s)
        frontier = nxt
    return dist


# ------------------------------------------------------------------- priors
def priors(pos: Playout, allowed: set[int] | None) -> list[tuple[int, int, int]]:
    """Return ``(move, prior visits, prior wins)`` for each candidate move
    of the side to move in ``pos`` (legal, not an own eye, and in
    ``allowed`` unless that is ``None``), in the order of ``pos.empties``."""
    color = pos.to_move
    enemy = 3 - color
    cells = pos.cells
    libs = pos.libs
    geo = pos.geo
    bonus: dict[int, list[int]] = {}

    def add(p: int, prior: tuple[int, int]) -> None:
        entry = bonus.get(p)
        if entry is None:
            bonus[p] = [prior[0], prior[1]]
        else:
            entry[0] += prior[0]
            entry[1] += prior[1]

    near_last: set[int] = set()
    for m in (pos.last, pos.last2):
        if m:
            near_last.update(geo.around[m])
    for r, group_libs in enumerate(libs):
        if group_libs is None:
            continue
        count = len(group_libs)
        stones = pos.stones[r]
        assert stones is not None
        if count == 1:
            (lib,) = group_libs
            if lib == pos.ko:
                continue
            if cells[r] == enemy:
                add(lib, PRIOR_CAPTURE_MANY if len(stones) > 1 else PRIOR_CAPTURE_ONE)
            else:
                after = pos.liberties_after(lib)
                if after >= 3:
                    add(lib, PRIOR_ESCAPE)
                elif after == 2:
                    trial = pos.copy()
                    trial.place(lib)  # then the attacker's turn: does a ladder work?
                    if _ladder_attack_works(trial, r):
                        add(lib, PRIOR_FUTILE)
                    else:
                        add(lib, PRIOR_ESCAPE)
        elif count == 2 and cells[r] == enemy and near_last.intersection(stones):
            # Atari that the ladder turns into a capture.
            for lib in group_libs:
                if not pos.legal(lib):
                    continue
                trial = pos.copy()
                trial.place(lib)
                mine_libs = trial.libs[trial.gid[lib]]
                if mine_libs is not None and len(mine_libs) >= 2 and \
                        ladder_captures(trial, r):
                    add(lib, PRIOR_LADDER_ATTACK)
    cfg = _cfg_distances(pos, pos.last, 3) if pos.last else {}
    codes = pos.codes
    out: list[tuple[int, int, int]] = []
    line = geo.line
    near = geo.near
    for p in pos.empties:
        if allowed is not None and p not in allowed:
            continue
        if pos.is_eye(p, color) or not pos.legal(p):
            continue
        visits, wins = PRIOR_EVEN
        extra = bonus.get(p)
        if extra is not None:
            visits += extra[0]
            wins += extra[1]
        if (extra is None or extra[1] == 0) and pos.liberties_after(p) < 2:
            big = any(cells[q] == color for q in geo.neighbours[p])
            v, w = PRIOR_SELF_ATARI_BIG if big else PRIOR_SELF_ATARI
            visits += v
            wins += w
        if _PATTERN[codes[p]]:
            visits += PRIOR_PATTERN[0]
            wins += PRIOR_PATTERN[1]
        d = cfg.get(p)
        if d is not None and 1 <= d <= 3:
            v, w = PRIOR_CFG[d - 1]
            visits += v
            wins += w
        height = line[p]
        if height <= 2 and not any(cells[q] != EMPTY for q in near[p]):
            v, w = PRIOR_THIRD_EMPTY if height == 2 else PRIOR_LOW_EMPTY
            visits += v
            wins += w
        out.append((p, visits, wins))
    return out


def _ladder_attack_works(pos: Playout, root: int) -> bool:
    """After an escape to two liberties (attacker to move): can an atari
    on either liberty start a ladder that captures the group at ``root``?"""
    group_libs = pos.libs[pos.gid[root]]
    if group_libs is None or len(group_libs) != 2:
        return False
    for atari in list(group_libs):
        if not pos.legal(atari):
            continue
        chase = pos.copy()
        chase.place(atari)
        own = chase.libs[chase.gid[atari]]
        if own is not None and len(own) == 1:
            continue
        if ladder_captures(chase, root):
            return True
    return False
