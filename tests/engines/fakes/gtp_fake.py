"""A misbehaving GTP engine for the tests: ``python gtp_fake.py MODE``.

* ``exit`` - exits at once (fails to start);
* ``garbage`` - answers ``genmove`` with a line that is not GTP;
* ``badvertex`` - answers ``genmove`` with ``= Z99``;
* ``occupied`` - answers every ``genmove`` with ``= A1`` (illegal from the
  second time it is played on);
* ``hang`` - never answers ``genmove``;
* ``crash`` - exits at ``genmove``;
* ``passer`` - always passes;
* ``kgsrules`` - lists ``kgs-rules``, accepts ``chinese``, ``japanese``,
  ``aga`` and ``new_zealand``, and answers ``last_rules`` with the last
  name it was given (``none`` before).
"""

import sys
import time


def main() -> None:
    mode = sys.argv[1]
    if mode == "exit":
        sys.exit(3)
    last_rules = "none"
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "protocol_version":
            out = "= 2"
        elif cmd == "name":
            out = "= Fake " + mode
        elif cmd == "version":
            out = "= 0"
        elif cmd == "list_commands":
            listed = ["protocol_version", "name", "version", "genmove", "play"]
            if mode == "kgsrules":
                listed += ["kgs-rules", "last_rules"]
            out = "= " + "\n".join(listed)
        elif cmd == "kgs-rules" and mode == "kgsrules":
            known = ("chinese", "japanese", "aga", "new_zealand")
            if len(words) == 2 and words[1] in known:
                last_rules = words[1]
                out = "="
            else:
                out = "? unknown rules"
        elif cmd == "last_rules" and mode == "kgsrules":
            out = "= " + last_rules
        elif cmd == "genmove":
            if mode == "garbage":
                print("I think therefore I am")
                sys.stdout.flush()
                continue
            if mode == "hang":
                time.sleep(3600)
            if mode == "crash":
                sys.exit(1)
            out = {"badvertex": "= Z99", "occupied": "= A1", "passer": "= pass"}.get(mode, "= pass")
        elif cmd == "quit":
            print("=\n")
            sys.stdout.flush()
            return
        elif cmd == "final_score":
            out = "? cannot score"
        else:
            out = "="
        print(out + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
