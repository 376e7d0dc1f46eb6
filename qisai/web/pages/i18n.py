"""Page texts in Chinese and English, and the choice between them.

The page language is, in order: the ``lang`` cookie set by the page's
switch, the browser's ``Accept-Language``, English.  繁體中文 (``zh-Hant``,
chosen by ``zh-TW``, ``zh-HK``, ``zh-MO`` or ``zh-Hant``) is the Chinese
page converted to traditional characters (:mod:`.hant`): its texts are the
``zh`` ones.
"""

from __future__ import annotations

__all__ = ["LANGS", "LANGUAGE_NAMES", "PAGE_LANGS", "TEXTS", "choose_language",
           "choose_page_language", "translator"]

LANGS = ("zh", "en")
"""The languages the texts are written in."""
PAGE_LANGS = ("zh", "zh-Hant", "en")
"""The languages a page is shown in (the switch's choices)."""
LANGUAGE_NAMES = {"zh": ("简体中文", "zh-CN"), "zh-Hant": ("繁體中文", "zh-Hant"),
                  "en": ("English", "en")}
"""Each page language's name, written in it, and its HTML ``lang``."""
_HANT_REGIONS = ("tw", "hk", "mo", "hant")

TEXTS: dict[str, tuple[str, str]] = {
    "title": ("棋赛 · 象棋与围棋", "qisai · Xiangqi and Go"),
    "home": ("首页", "Home"),
    "play": ("下棋", "Play"),
    "tournaments": ("比赛", "Tournaments"),
    "login": ("登录", "Log in"),
    "logout": ("退出", "Log out"),
    "register": ("注册", "Register"),
    "guest": ("游客试玩", "Play as guest"),
    "username": ("用户名", "User name"),
    "password": ("密码（至少8位）", "Password (8 characters or more)"),
    "display_name": ("显示名", "Display name"),
    "new_game": ("新对局", "New game"),
    "xiangqi": ("象棋", "Xiangqi"),
    "go": ("围棋", "Go"),
    "ruleset": ("规则", "Rules"),
    "time": ("用时", "Time"),
    "no_clock": ("不计时", "No clock"),
    "minutes": ("分钟", "minutes"),
    "increment": ("每步加秒", "increment (s)"),
    "color": ("执子", "Colour"),
    "opponent": ("对手", "Opponent"),
    "opponent_human": ("等人加入（邀请链接）", "A person (invitation link)"),
    "opponent_engine": ("棋赛引擎", "qisai's engine"),
    "first": ("先手", "First"),
    "second": ("后手", "Second"),
    "random": ("随机", "Random"),
    "rated": ("计等级分", "Rated"),
    "size": ("棋盘路数", "Board size"),
    "create": ("创建", "Create"),
    "open_games": ("等待对手的对局", "Open games"),
    "live_games": ("正在进行", "Games in play"),
    "recent_games": ("最近对局", "Recent games"),
    # --- issue 22 items 2 and 3: live boards, TV and the events calendar (lobby) ---
    "live_boards": ("实时棋盘", "Live boards"),
    "tv": ("棋赛电视", "qisai TV"),
    "featured": ("焦点对局", "Featured game"),
    "no_live_boards": ("现在没有正在进行的对局", "No game is being played now"),
    "calendar": ("赛事日历", "Events calendar"),
    "my_events": ("我的赛事", "My events"),
    "upcoming_events": ("即将开始", "Upcoming"),
    "running_events": ("正在进行的赛事", "Running"),
    "finished_events": ("已结束", "Finished"),
    "registration_open": ("报名中", "Registration open"),
    "registration_closed": ("报名已截止", "Registration closed"),
    "entries_count": ("报名数", "Entries"),
    "venue": ("地点", "Venue"),
    "dates": ("日期", "Dates"),
    "rating_limits": ("等级分限制", "Rating limits"),
    "sign_up": ("报名", "Register"),
    "signed_up": ("已报名", "Registered"),
    "team_name": ("队名", "Team name"),
    "team_members": ("队员（按台次，用户名以逗号分隔）", "Members (board order, user names, commas)"),
    "event_papers": ("赛事文书", "Papers"),
    "log_in_to_register": ("登录后报名", "Log in to register"),
    "save_listing": ("保存", "Save"),
    "join": ("加入", "Join"),
    "watch": ("观看", "Watch"),
    "invite": ("邀请链接", "Invitation link"),
    "waiting": ("等待对手加入……", "Waiting for an opponent…"),
    "resign": ("认输", "Resign"),
    "offer_draw": ("提和", "Offer a draw"),
    "accept_draw": ("同意和棋", "Accept the draw"),
    "decline_draw": ("拒绝和棋", "Decline the draw"),
    "pass": ("虚着（停一手）", "Pass"),
    "claim": ("申请判和（自然限着）", "Claim a draw (move limit)"),
    "confirm_dead": ("确认死子", "Confirm dead stones"),
    "dispute_dead": ("对死子有异议", "Dispute dead stones"),
    "moves": ("着法", "Moves"),
    "notation": ("记谱", "Notation"),
    "result": ("结果", "Result"),
    "reason": ("原因", "Reason"),
    "clause": ("条款", "Clause"),
    "download": ("下载棋谱", "Download the record"),
    "replay": ("回放", "Replay"),
    "spectator": ("观战中", "Watching"),
    "your_turn": ("轮到你走", "Your move"),
    "their_turn": ("等待对方走棋", "Opponent to move"),
    "rating": ("等级分", "Rating"),
    "rating_history": ("等级分变化", "Rating history"),
    "games": ("对局", "Games"),
    "profile": ("个人资料", "Profile"),
    "name": ("名称", "Name"),
    "format": ("赛制", "Format"),
    "players": ("棋手", "Players"),
    "round": ("轮次", "Round"),
    "board": ("台次", "Board"),
    "standings": ("名次", "Standings"),
    "crosstable": ("交叉表", "Crosstable"),
    "your_line": ("我的成绩", "Your line"),
    "find_entry": ("查找棋手（姓名或编号）", "Find a player (name or number)"),
    "find": ("查找", "Find"),
    "no_match": ("没有找到", "No match"),
    "earlier": ("上一页", "Earlier"),
    "later": ("下一页", "Later"),
    "of_total": ("共", "of"),
    "rounds_list": ("各轮", "Rounds"),
    "full_crosstable": ("完整交叉表（分页）", "The whole crosstable (paged)"),
    "log_last": ("最近的记录", "The latest entries"),
    "pair_round": ("编排下一轮", "Pair the next round"),
    "add_player": ("报名棋手", "Register a player"),
    "create_tournament": ("创建比赛", "Create a tournament"),
    "enter_result": ("录入结果", "Enter a result"),
    "points": ("积分", "Points"),
    "status": ("状态", "Status"),
    "none": ("暂无", "None yet"),
    "connection_lost": ("连接中断，正在重连……", "Connection lost, reconnecting…"),
    "check": ("将军！", "Check!"),
    "flip": ("翻转棋盘", "Flip board"),
    "round_robin": ("循环赛", "Round robin"),
    "double_round_robin": ("双循环", "Double round robin"),
    "start": ("开始比赛", "Start the event"),
    "swiss": ("积分编排制（瑞士制）", "Swiss (积分编排制)"),
    # events: knock-outs, teams, arbiters' actions
    "knockout": ("淘汰赛", "Knock-out"),
    "double_knockout": ("双淘汰赛", "Double elimination"),
    "team_round_robin": ("团体循环赛", "Team round robin"),
    "team_swiss": ("团体积分编排制", "Team Swiss (积分编排制)"),
    "team_all_play_all": ("全队轮赛制（12.4）", "Team all-play-all (12.4 全队轮)"),
    "import_event": ("导入赛事文件（qisai tournament / qisai event）",
                     "Import an event file (qisai tournament / qisai event)"),
    "import": ("导入", "Import"),
    "event_file": ("下载赛事文件（命令行 qisai tournament 可继续）",
                   "Download the event file (qisai tournament continues it)"),
    "series": ("每对局数", "Match format"),
    "single": ("一局", "One game"),
    "two_games": ("两局制（13.5）", "Two games (13.5)"),
    "best_of_three": ("三局两胜", "Best of three"),
    "draw_kind": ("抽签方式", "Draw"),
    "bracket": ("种子对阵表", "Seeded bracket"),
    "cards": ("每轮扑克抽签", "Card draw each round"),
    "byes": ("轮空", "Byes"),
    "seeded": ("给种子选手", "To the top seeds"),
    "lot": ("抽签", "By lot"),
    "seeding": ("种子排序", "Seeding"),
    "by_rating": ("按等级分", "By rating"),
    "by_order": ("按报名顺序", "As registered"),
    "boards": ("台数", "Boards"),
    "lineup_mode": ("排阵方式", "Line-ups"),
    "fixed": ("分台定人制（12.1）", "Fixed boards (12.1)"),
    "substitutes": ("分台换人制（12.2）", "Substitutes in order (12.2)"),
    "free": ("临时定台制（12.3）", "Free order (12.3)"),
    "publish_mode": ("公布对阵", "Publish pairings"),
    "play_where": ("对局方式", "Boards are played"),
    "play_server": ("在本站对弈（计时）", "On the server (with clocks)"),
    "play_otb": ("现场对弈（录入结果）", "Over the board (results entered)"),
    "auto": ("编排后立即公布", "As soon as paired"),
    "manual": ("由组织者公布", "When the organiser says"),
    "publish": ("公布对阵", "Publish the pairings"),
    "unpublish": ("撤回对阵", "Withdraw the pairings"),
    "not_published": ("对阵尚未公布", "Pairings not published yet"),
    "bracket_title": ("对阵图", "Bracket"),
    "match": ("场次", "Match"),
    "winner": ("胜者", "Winner"),
    "champion": ("冠军", "Champion"),
    "placings": ("名次", "Final placings"),
    "decide": ("裁判裁定胜者", "Arbiter decides the winner"),
    "next_game": ("下一局", "Next game"),
    "teams": ("参赛队", "Teams"),
    "team": ("队名", "Team"),
    "members": ("队员（按台次，一行一人；@用户名 关联账号）",
                "Members in board order, one a line (@username links an account)"),
    "add_team": ("报名参赛队", "Register a team"),
    "lineups": ("出场名单", "Line-ups"),
    "set_lineups": ("确定出场名单", "Set the line-ups"),
    "match_points": ("场分", "Match points"),
    "board_points": ("局分", "Board points"),
    "forfeit_match": ("整场弃权", "Forfeit the match"),
    "withdraw": ("退赛", "Withdraw"),
    "withdraw_who": ("退赛者姓名", "Name of the entry withdrawing"),
    "ask_reason": ("请说明更正或裁定的原因：", "Say why (it is kept in the arbiters' log):"),
    "log": ("裁判记录", "Arbiters' log"),
    "fouls": ("犯规", "Fouls"),
    "bye": ("轮空", "Bye"),
    # group round robin (11.3), McMahon, the 2021 league format
    "group_round_robin": ("分组循环赛", "Group round robin"),
    "groups": ("组数", "Groups"),
    "group": ("组别", "Group"),
    "grouping": ("分组方式", "Grouping"),
    "grouping_snake": ("按等级分蛇形分组", "Seeded by rating, snaked"),
    "grouping_lot": ("抽签蛇形分组", "Snaked by lot"),
    "advance": ("每组出线人数", "Qualifiers per group"),
    "final_stage": ("决赛阶段", "Final stage"),
    "final_round_robin": ("决赛（循环）", "Final (round robin)"),
    "final_none": ("无决赛（按小组名次）", "None (group places)"),
    "cut_tie": ("出线名次并列，需加赛或按竞赛规程决定（15.6）",
                "A shared place at the qualifying cut: a play-off or the event's rule decides (15.6)"),
    "mcmahon": ("麦克马洪制", "McMahon"),
    "mcmahon_bar": ("上限（bar）", "Bar"),
    "mcmahon_floor": ("下限（floor）", "Floor"),
    "start_by": ("起始分依据", "Starting scores from"),
    "by_rank": ("段级位", "Go rank"),
    "go_rank": ("段级位（如 3d、5k）", "Go rank (e.g. 3d, 5k)"),
    "start_score": ("起始分", "Start"),
    "mms": ("麦克马洪分", "McMahon score"),
    "league_2021": ("2021联赛制（慢棋·超快棋·附加赛）", "2021 league (slow, rapid, decider)"),
    "choose_colour": ("选择先后手", "Choose the colours"),
    "choice_due": ("附加赛由超快棋执黑方选择先后手", "The decider's colours are chosen by Black of the rapid game"),
    "takes_red": ("执红（先手）", "takes Red (first)"),
    "team_struck": ("成绩注销（20.3）", "results struck out (20.3)"),
    # The game page: the arbiter's controls and the rulings list.
    "rulings": ("裁判记录", "Rulings"),
    "arbiter": ("裁判", "Arbiter"),
    "staff": ("竞赛工作人员", "Staff"),
    "staff_of": ("工作人员：", "Staff of "),
    "staff_role": ("职务", "Part"),
    "staff_by": ("任命人", "Appointed by"),
    "staff_creator": ("创建者", "creator"),
    "role_organiser": ("组织者", "Organiser"),
    "role_chief_arbiter": ("裁判长", "Chief arbiter"),
    "role_arbiter": ("裁判员", "Arbiter"),
    "appoint": ("任命", "Appoint"),
    "remove_staff": ("免除", "Remove"),
    "staff_note": ("组织者任命裁判长与裁判员（16.2）；裁判员不得裁决自己参加的对局（17.4）。",
                   "The organisers appoint the chief arbiter and the arbiters (16.2); an "
                   "arbiter never rules on a game he plays in (17.4)."),
    "back_to_event": ("返回比赛", "Back to the event"),
    "arb_side": ("对象", "Player"),
    "arb_note": ("说明", "Note"),
    "arb_warning": ("警告", "Warning"),
    "arb_foul": ("犯规", "Foul"),
    "arb_decision": ("裁决", "Decision"),
    "arb_win": ("判胜", "Win"),
    "arb_draw": ("判和", "Draw"),
    "arb_no_result": ("无胜负（重下）", "No result (replay)"),
    "arb_decide": ("宣布裁决", "Announce the decision"),
    "arb_clause_needed": ("请填写所依据的条款", "Give the clause the ruling rests on"),
    "reason_adjudication": ("裁判裁定", "Arbiter's ruling"),
    "reason_misconduct": ("严重违反纪律（4.1.10）", "Misconduct (4.1.10)"),
    "reason_fouls": ("犯规次数达到限制", "Foul limit reached"),
    "reason_illegal_move": ("违反行棋规定", "Illegal move"),
    "reason_time_forfeit": ("超时", "Lost on time"),
    "reason_late_arrival": ("迟到超过时限", "Late beyond the limit"),
    "reason_no_win_possible": ("双方均无可能取胜（4.2.1）", "Neither side can win (4.2.1)"),
    "reason_two_warnings": ("警告满二次", "Two warnings"),
    "reason_moved_twice": ("连走二步", "Moved twice"),
    "reason_cycle": ("循环（三劫、长生等）", "Unbreakable cycle"),
    "reason_natural_limit": ("自然限着（23.3）", "Natural move limit (23.3)"),
    "reason_repetition": ("循环反复，不变作和", "Repetition"),
    "reason_perpetual_check": ("长将", "Perpetual check"),
    "reason_checkmate": ("将死", "Checkmate"),
    "reason_stalemate": ("困毙", "Stalemate"),
    "reason_facing_generals": ("将帅对面", "Facing generals"),
    "reason_forbidden_repetition": ("禁止着法循环", "Forbidden repetition"),
    "reason_agreement": ("双方同意作和", "Draw by agreement"),
    "reason_resignation": ("认输", "Resignation"),
    "reason_score": ("计算胜负", "Counting"),
    # the game page (issue 17)
    "resign_confirm": ("确定认输吗？", "Resign this game?"),
    "viewing": ("正在查看第 {n} 着", "Viewing move {n}"),
    "back_to_live": ("回到当前局面", "Back to live"),
    "first_move": ("第一着", "First move"),
    "prev_move": ("上一着", "Previous move"),
    "next_move": ("下一着", "Next move"),
    "last_move": ("最后一着", "Last move"),
    "start_position": ("开局局面", "Start position"),
    "not_now": ("现在不可", "Not now"),
    "offer_with_move": ("走这步棋后提和", "Offer a draw with this move"),
    # casual comfort (issue 17 item 3)
    "takeback": ("悔棋", "Takeback"),
    "takeback_accept": ("同意悔棋", "Accept the takeback"),
    "takeback_decline": ("拒绝悔棋", "Decline the takeback"),
    "takeback_waiting": ("已请求悔棋，等待对方回答", "Takeback asked; waiting for the answer"),
    "takeback_nothing": ("你还没有走棋，没有可悔的棋", "You have made no move to take back"),
    "rematch": ("再来一局", "Rematch"),
    "rematch_accept": ("接受再来一局", "Accept the rematch"),
    "rematch_waiting": ("已提议再来一局，等待对方", "Rematch offered; waiting for the answer"),
    "rematch_go": ("去新对局", "Go to the rematch"),
    "sound_on": ("声音：开", "Sound: on"),
    "sound_off": ("声音：关", "Sound: off"),
    # the analysis board (issue 17 item 4)
    "analysis": ("分析", "Analysis"),
    "analyse_game": ("分析这盘棋", "Analyse this game"),
    "variations": ("变化", "Variations"),
    "delete_variation": ("删除此变化", "Delete this variation"),
    "engine": ("引擎", "Engine"),
    "seconds": ("思考时间", "Thinking time"),
    "analyse": ("引擎分析", "Analyse"),
    "pv_add": ("把引擎的变化加入棋谱", "Add the engine's line"),
    "position": ("局面", "Position"),
    "copy": ("复制", "Copy"),
    "copied": ("已复制", "Copied"),
    "load_position": ("载入局面", "Load a position"),
    "load": ("载入", "Load"),
    "to_move": ("走棋方", "To move"),
    "analysis_over": ("对局已结束（将死或困毙）", "The game is over here (mate or stalemate)"),
    "thinking": ("引擎思考中…", "The engine is thinking…"),
    "red_view": ("红方视角", "Red's view"),
    "winrate": ("胜率（走棋方）", "Win rate (side to move)"),
    "best_move": ("最佳着法", "Best move"),
    "side_first_xiangqi": ("红方", "Red"),
    "side_second_xiangqi": ("黑方", "Black"),
    "side_first_go": ("黑方", "Black"),
    "side_second_go": ("白方", "White"),
    "analysis_game": ("没有这个对局", "There is no such game"),
    "analysis_in_play": ("对局还在进行，结束后才能分析", "The game is still in play; analyse it once it is over"),
}


def choose_language(cookie: str | None, accept_language: str | None) -> str:
    """Return the language of the texts, ``"zh"`` or ``"en"`` (``zh`` for a
    繁體中文 page too), as :func:`choose_page_language` chooses."""
    page = choose_page_language(cookie, accept_language)
    return "zh" if page == "zh-Hant" else page


def choose_page_language(cookie: str | None, accept_language: str | None) -> str:
    """Return ``"zh"``, ``"zh-Hant"`` or ``"en"`` from the switch's cookie or
    the browser's ``Accept-Language`` (highest quality first; English by
    default): ``zh-TW``, ``zh-HK``, ``zh-MO`` and ``zh-Hant...`` choose
    ``zh-Hant``, any other ``zh`` ``zh``."""
    if cookie in PAGE_LANGS:
        return cookie
    best, best_q = "en", -1.0
    for part in (accept_language or "").split(","):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower()
        q = 1.0
        for f in fields[1:]:
            f = f.strip()
            if f.startswith("q="):
                try:
                    q = float(f[2:])
                except ValueError:
                    q = 0.0
        parts = tag.split("-")
        lang = parts[0]
        if lang == "zh" and any(p in _HANT_REGIONS for p in parts[1:]):
            lang = "zh-Hant"
        if lang in PAGE_LANGS and q > best_q:
            best, best_q = lang, q
    return best


def translator(lang: str):  # type: ignore[no-untyped-def]
    """Return ``t(key)`` giving the text of ``key`` in ``lang``."""
    index = 0 if lang == "zh" else 1

    def t(key: str) -> str:
        pair = TEXTS.get(key)
        return key if pair is None else pair[index]
    return t
