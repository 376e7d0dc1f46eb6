"""The exhibition pages: the list of simultaneous displays (with the
organiser's form), the form to make a consultation game (会商, issue 33
item 7: it posts to ``/api/consultations``) and a display's page, which is the host's ring of small
boards, an entrant's own board with the host's progress, or a spectator's
view of every board.  Their texts are kept here, apart from the shared
page texts, in Chinese and English."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from qisai.store.models import Role
from qisai.web.accounts.deps import ViewerDep
from qisai.web.bounds import DbId
from qisai.web.exhibitions import simuls, store
from qisai.web.pages.i18n import choose_language
from qisai.web.pages.render import embed_json, render
from qisai.web.state import StateDep

__all__ = ["router", "TEXTS"]

router = APIRouter(include_in_schema=False)

TEXTS: dict[str, tuple[str, str]] = {
    "simuls": ("车轮战", "Simuls"),
    "simul": ("车轮战", "Simul"),
    "new_simul": ("举办车轮战", "Hold a simul"),
    "name": ("名称", "Name"),
    "host_colour": ("主将执", "Host plays"),
    "alternate": ("轮换", "Alternate"),
    "max_boards": ("台数上限", "Board limit"),
    "rated": ("计等级分", "Rated"),
    "host_blindfold": ("主将蒙目", "Host blindfold"),
    "create": ("创建", "Create"),
    "join": ("报名", "Join"),
    "leave": ("退出", "Leave"),
    "start": ("开始", "Start"),
    "blindfold": ("蒙目（盲棋）", "Blindfold"),
    "blind_seat": ("蒙目", "blindfold"),
    "entrants": ("对手", "Entrants"),
    "score": ("战绩", "Score"),
    "next_board": ("下一台 (n)", "Next board (n)"),
    "board": ("台", "Board"),
    "your_move": ("输入着法", "Type a move"),
    "send": ("走", "Play"),
    "host_at": ("主将在", "The host is at"),
    "waiting_host": ("等主将", "waiting for the host"),
    "waiting_entrant": ("等对手", "waiting for the entrant"),
    "over": ("已结束", "finished"),
    "speak": ("朗读", "Speak"),
    "open": ("报名中", "open"),
    "started": ("进行中", "in play"),
    "finished": ("已结束", "finished"),
    "none_waiting": ("没有等主将的棋盘", "no board waits for the host"),
    "xiangqi": ("象棋", "Xiangqi"),
    "host": ("主将", "Host"),
    "members": ("人", "members"),
    "group": ("会商小组", "Consultation group"),
    "group_name": ("小组名称", "Group name"),
    "form_group": ("组建会商小组", "Form a group"),
    "join_group": ("加入", "Join"),
    "leave_group": ("退出小组", "Leave the group"),
    "vote_here": ("在对局页投票、讨论", "vote and talk on the game's page"),
    "go": ("围棋", "Go"),
    "host_win": ("主将胜", "host won"),
    "host_draw": ("和", "draw"),
    "host_loss": ("主将负", "host lost"),
    "no_result": ("无结果", "no result"),
    "open_game": ("看棋", "watch"),
    "clock_minutes": ("每方用时（分钟，0 为不计时）", "Minutes each (0: no clock)"),
    "increment": ("每步加秒", "Seconds added a move"),
    "host_extra_minutes": ("主将加时（分钟）", "Host's extra minutes"),
    "host_extra_per_board": ("主将每台加时（秒）", "Host's extra seconds per board"),
    "host_extra_note": ("主将的用时为对手的用时，加上加时和每台加时乘以台数。",
                        "The host's clock: the entrants' clock, plus the extra minutes, plus "
                        "the extra seconds per board times the number of boards."),
    "host_extra": ("主将加时", "Host's extra time"),
    "new_consultation": ("会商对局", "Consultation game"),
    "consult_intro": ("本方由一组棋手会商走棋：成员投票决定着法，或由队长决定；认输、提和也按小组的规则。",
                      "Your side is played by a group: the members vote on each move, or the "
                      "captain decides; resigning and draws go by the group's rule too."),
    "member_names": ("小组成员（用户名，以逗号分隔，含你自己）",
                     "Members (user names, comma-separated, yourself included)"),
    "captain": ("队长（用户名，可不填）", "Captain (user name, optional)"),
    "mode": ("决定方式", "Decided by"),
    "majority": ("多数表决", "majority vote"),
    "captain_mode": ("队长决定", "the captain"),
    "reserve": ("每步保留时间（秒）", "Reserve per move (seconds)"),
    "minutes": ("每方用时（分钟，0 为不计时）", "Minutes each (0: no clock)"),
    "group_plays": ("小组执", "The group plays"),
    "red": ("红方", "Red"),
    "black": ("黑方", "Black"),
    "white": ("白方", "White"),
    "opponent": ("对手", "Opponent"),
    "opponent_human": ("等人加入", "a player who joins"),
    "opponent_engine": ("电脑", "the engine"),
    "no_such_player": ("找不到棋手", "no such player"),
    "login_first": ("请先登录", "log in first"),
}


def _tx(lang: str) -> Any:
    def tx(key: str) -> str:
        zh, en = TEXTS.get(key, (key, key))
        return zh if lang == "zh" else en
    return tx


def _lang(request: Request) -> str:
    return choose_language(request.cookies.get("lang"), request.headers.get("accept-language"))


@router.get("/simuls", response_class=HTMLResponse)
def simuls_page(request: Request, v: ViewerDep, app: StateDep) -> HTMLResponse:
    """The displays, newest first; an organiser's form to hold one."""
    with app.db.session() as s:
        rows = [{"id": r.id, "name": r.name, "kind": r.kind, "status": r.status,
                 "boards": len(r.data.get("entrants", []))} for r in store.list_simuls(s)]
    may = v.user is not None and v.user.role_enum.allows(Role.ORGANISER)
    return render(request, v, "exhibitions/simuls.html", rows=rows, may_create=may,
                  tx=_tx(_lang(request)))


@router.get("/consultations/new", response_class=HTMLResponse)
def consultation_form(request: Request, v: ViewerDep) -> HTMLResponse:
    """The form to make a consultation game (the API checks everything)."""
    lang = _lang(request)
    tx = _tx(lang)
    return render(request, v, "exhibitions/consultation.html", tx=tx,
                  texts_json=embed_json({k: tx(k) for k in TEXTS}))


@router.get("/simuls/{simul_id}", response_class=HTMLResponse)
async def simul_page(simul_id: DbId, request: Request, v: ViewerDep, app: StateDep
                     ) -> HTMLResponse:
    """A display's page: the host's ring, an entrant's board, or every board."""
    st = await run_in_threadpool(simuls.load_synced, app, simul_id)  # 404 if there is none
    lang = _lang(request)
    tx = _tx(lang)
    data = simuls.view(st, v.user)
    texts = {k: tx(k) for k in TEXTS}
    return render(request, v, "exhibitions/simul.html", simul=data, tx=tx,
                  simul_json=embed_json(data), texts_json=embed_json(texts))
