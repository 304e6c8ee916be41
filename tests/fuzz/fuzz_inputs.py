#!/usr/bin/env python3
"""Mutation fuzz of every file the referee reads, through the real `referee` commands.

Each campaign takes a real file (a scene, a melee case, a board, a calibration, a game log, a
club database, a ruleset data file, a camera frame), damages it (a wrong type, a deleted key, a
huge or negative number, a flipped byte, a cut-off end, a line dropped or repeated) and runs the
command a user would. A run fails the guide's bar when it crashes (a signal, an uncaught
exception, a sanitizer report), hangs past the timeout, or refuses with an error that is not one
line naming the file. Refusals themselves are the expected outcome; they are counted, not failed.

  tests/fuzz/fuzz_inputs.py --referee build/ui/referee --out /tmp/fuzz --count 200 --seed 1

Exit status 1 when any run crashed, hung or gave an unnamed or multi-line error; each such case
is kept under OUT/found/ with its input and the command's output.
"""
import argparse
import copy
import json
import os
import random
import re
import shutil
import subprocess
import sys

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

BAD_VALUES = [None, "x", "", -1, 0, 1, -1e308, 1e308, 99999999999999999999, 2**31, -2**31, 0.5,
              [], {}, [[]], [1, 2, 3], [1e308, -1e308], True, "NaN", "\u00ff" * 3, [None],
              [-1, -1], [0, 0], 1e-300, -0.0, "a" * 5000]


def json_paths(o, p=()):
    yield p
    if isinstance(o, dict):
        for k, v in o.items():
            yield from json_paths(v, p + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from json_paths(v, p + (i,))


def at(o, p):
    for k in p:
        o = o[k]
    return o


def mutate_json(obj, rng):
    o = copy.deepcopy(obj)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        p = rng.choice(list(json_paths(o)))
        if not p:
            continue
        parent, k = at(o, p[:-1]), p[-1]
        r = rng.random()
        v = at(o, p)
        if r < 0.25 and isinstance(parent, dict):
            del parent[k]
        elif r < 0.35 and isinstance(parent, list):
            del parent[k]
        elif r < 0.45 and isinstance(parent, list):
            parent.append(copy.deepcopy(v))
        elif r < 0.55 and isinstance(v, (int, float)) and not isinstance(v, bool):
            parent[k] = rng.choice([v * 1000, -v, v + 1, v - 1, v * 1e-6, 0])
        else:
            parent[k] = copy.deepcopy(rng.choice(BAD_VALUES))
    return json.dumps(o, indent=1).encode()


def mutate_bytes(data, rng):
    d = bytearray(data)
    r = rng.random()
    if r < 0.3 and len(d) > 1:
        return bytes(d[:rng.randrange(len(d))])
    if r < 0.6:
        for _ in range(rng.randint(1, 8)):
            d[rng.randrange(len(d))] = rng.randrange(256)
        return bytes(d)
    if r < 0.8:
        i = rng.randrange(len(d) + 1)
        return bytes(d[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 20))) + d[i:])
    s = d.decode("latin-1")  # a number in a text file replaced by an unreadable one
    nums = list(re.finditer(r"-?\d+(\.\d*)?(e[-+]?\d+)?", s))
    if not nums:
        return bytes(d)
    m = rng.choice(nums)
    rep = rng.choice(["nan", "inf", "-inf", "1e308", "-1", "0", "99999999999", ".", "-0", "1e-320"])
    return (s[:m.start()] + rep + s[m.end():]).encode("latin-1")


def mutate_jsonl(data, rng):
    lines = data.decode("latin-1").splitlines()
    r = rng.random()
    i = rng.randrange(len(lines))
    if r < 0.6:
        try:
            lines[i] = mutate_json(json.loads(lines[i]), rng).decode().replace("\n", "")
        except ValueError:
            pass
    elif r < 0.7:
        del lines[i]
    elif r < 0.8:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif r < 0.9:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        return mutate_bytes(data, rng)
    return ("\n".join(lines) + "\n").encode("latin-1")


CRASH_SIGNS = ("terminate called", "AddressSanitizer", "runtime error:", "Assertion", "what():",
               "LeakSanitizer", "[json.exception", "basic_string::", "filesystem error")


def run(cmd, timeout, env=None):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout, env=env)
        return p.returncode, p.stderr.decode("latin-1")
    except subprocess.TimeoutExpired:
        return None, ""


def judge(rc, err, names):
    """'crash', 'hang', 'unnamed', 'multiline', 'refused' or 'ok'."""
    if rc is None:
        return "hang"
    if rc < 0 or rc in (134, 136, 139) or any(s in err for s in CRASH_SIGNS):
        return "crash"
    if rc == 0:
        return "ok"
    # libjpeg's and libpng's own warnings go to stderr before the referee's line.
    lines = [l for l in err.splitlines() if l.strip() and not l.startswith(("Corrupt JPEG",
                                                                             "Premature end",
                                                                             "libpng"))]
    if not lines:  # `log check` lists the bad lines on stdout and exits 1
        return "refused"
    if len(lines) != 1 and not all(":" in l and "skipped" in l for l in lines[:-1]):
        return "multiline"
    # A shot rejected or a grid refused is a verdict on what the camera saw, not a bad file.
    if not any(n in err for n in names) and not re.search(r": (rejected|refused)\b", err):
        return "unnamed"
    return "refused"


class Fuzzer:
    def __init__(self, args):
        self.referee = os.path.abspath(args.referee)
        self.out = os.path.abspath(args.out)
        self.count = args.count
        self.rng = random.Random(args.seed)
        self.timeout = args.timeout
        self.totals = {}
        self.work = os.path.join(self.out, "work")
        os.makedirs(self.work, exist_ok=True)

    def seeds(self):
        """Real inputs made by the referee itself: a scene, its calibration, a demo game log."""
        s = os.path.join(self.out, "seeds")
        scene = os.path.join(s, "scene", "scene_0000")
        if not os.path.exists(os.path.join(scene, "after.jpg")):
            subprocess.run([self.referee, "synth", "--seed", "3", "--scenario",
                            os.path.join(SOURCE, "datasets/scenarios/napoleonic.json"), "--out",
                            os.path.join(s, "scene"), "--count", "1", "--size", "1280x720"],
                           check=True, capture_output=True)
        self.scene = scene
        self.board = os.path.join(SOURCE, "datasets/boards/napoleonic_12x8.json")
        self.cal = os.path.join(s, "cal.yml")
        if not os.path.exists(self.cal):
            subprocess.run([self.referee, "calibrate", "--board", self.board, "--image",
                            os.path.join(scene, "empty.png"), "--out", self.cal], check=True,
                           capture_output=True)
        self.log = os.path.join(s, "game.jsonl")
        if not os.path.exists(self.log) and shutil.which("xvfb-run"):
            subprocess.run(["xvfb-run", "-a", self.referee, "live", "--demo", "--frames", "400",
                            "--log", self.log, "--dice-seed", "3"], check=True,
                           capture_output=True)
        self.finished = os.path.join(s, "finished.jsonl")
        if os.path.exists(self.log) and not os.path.exists(self.finished):
            events = [json.loads(l) for l in open(self.log)]
            start = {"seq": 1, "type": "game_start", "format_version": 1,
                     "time_utc": events[0]["time_utc"], "game_id": "fuzz", "ruleset": "napoleonic",
                     "scenario": "demo", "board": {"cols": 12, "rows": 8, "square_in": 4.0},
                     "players": [{"name": "Ann", "side": "red", "army": "a"},
                                 {"name": "Bob", "side": "blue", "army": "b"}]}
            for e in events:
                e["seq"] += 1
            end = {"seq": events[-1]["seq"] + 1, "type": "game_end", "format_version": 1,
                   "time_utc": events[-1]["time_utc"], "winner": "blue", "reason": "time",
                   "points": {"blue": 3.0, "red": 0.0}}
            with open(self.finished, "w") as f:
                f.writelines(json.dumps(e) + "\n" for e in [start] + events + [end])
        self.club = os.path.join(s, "club.sqlite")
        if os.path.exists(self.finished) and not os.path.exists(self.club):
            subprocess.run([self.referee, "club", "add", self.finished, "--db", self.club],
                           check=True, capture_output=True)

    def campaign(self, name, seeds, mutate, command, suffix, timeout=None, env=None, reads=None,
                 also_named=()):
        counts = {}
        for n in range(self.count):
            seed = self.rng.choice(seeds)
            path = os.path.join(self.work, f"{name}_{n}{suffix}")
            with open(seed, "rb") as f:
                data = f.read()
            with open(path, "wb") as f:
                f.write(mutate(json.loads(data), self.rng) if mutate is mutate_json
                        else mutate(data, self.rng))
            if reads:  # the command reads the mutant under another name (a data file)
                shutil.copy(path, reads)
            cmd = command(path)
            rc, err = run(cmd, timeout or self.timeout, env)
            # A data file's damage may surface as an error in the input the command was given.
            names = [path, os.path.basename(path)] + ([reads] if reads else []) + list(also_named)
            verdict = judge(rc, err, names)
            counts[verdict] = counts.get(verdict, 0) + 1
            if verdict not in ("ok", "refused"):
                keep = os.path.join(self.out, "found", f"{name}_{n}_{verdict}")
                os.makedirs(keep, exist_ok=True)
                shutil.copy(path, keep)
                with open(os.path.join(keep, "report.txt"), "w") as f:
                    f.write(" ".join(cmd) + f"\nexit {rc}\n{err[-4000:]}")
                print(f"  {verdict}: {name} #{n}: {err.strip()[-200:]!r}", flush=True)
            os.remove(path)
        if reads:
            shutil.copy(seeds[0], reads)
        self.totals[name] = counts
        print(f"{name}: {counts}", flush=True)

    def run_all(self, only):
        r, src = self.referee, SOURCE
        work = self.work
        scenes = [os.path.join(src, "datasets/scenes", f)
                  for f in sorted(os.listdir(os.path.join(src, "datasets/scenes")))]
        cases = [os.path.join(src, "datasets/rules_cases", f)
                 for f in sorted(os.listdir(os.path.join(src, "datasets/rules_cases")))
                 if f.endswith(".json")]
        boards = [os.path.join(src, "datasets/boards", f)
                  for f in sorted(os.listdir(os.path.join(src, "datasets/boards")))]
        empty = os.path.join(self.scene, "empty.png")
        adjudicate = [r, "adjudicate", "--before", os.path.join(self.scene, "before.png"),
                      "--out", os.path.join(work, "adj.json")]
        plan = {
            "scene": lambda: self.campaign("scene", scenes, mutate_json,
                                           lambda f: [r, "adjudicate-scene", f, "--json"], ".json"),
            "melee": lambda: self.campaign("melee", cases, mutate_json,
                                           lambda f: [r, "rules", "melee", f, "--json"], ".json"),
            "board": lambda: self.campaign(
                "board", boards, mutate_json,
                lambda f: [r, "calibrate", "--board", f, "--image", empty, "--out",
                           os.path.join(work, "cal.yml")], ".json"),
            "calibration": lambda: self.campaign(
                "calibration", [self.cal], mutate_bytes,
                lambda f: [r, "rectify", "--calibration", f, "--image", empty, "--out",
                           os.path.join(work, "top.png")], ".yml"),
            "adjudicate_board": lambda: self.campaign(
                "adjudicate_board", [self.board], mutate_json,
                lambda f: adjudicate + ["--calibration", self.cal, "--board", f, "--after",
                                        os.path.join(self.scene, "after.jpg")], ".json",
                timeout=4 * self.timeout),
            "adjudicate_calibration": lambda: self.campaign(
                "adjudicate_calibration", [self.cal], mutate_bytes,
                lambda f: adjudicate + ["--calibration", f, "--board", self.board, "--after",
                                        os.path.join(self.scene, "after.jpg")], ".yml",
                timeout=4 * self.timeout),
            "adjudicate_image": lambda: self.campaign(
                "adjudicate_image", [os.path.join(self.scene, "after.jpg")], mutate_bytes,
                lambda f: adjudicate + ["--calibration", self.cal, "--board", self.board,
                                        "--after", f], ".jpg", timeout=4 * self.timeout),
        }
        if os.path.exists(self.log):
            plan["log"] = lambda: self.campaign("log", [self.log], mutate_jsonl,
                                                lambda f: [r, "log", "check", f], ".jsonl")
            plan["report"] = lambda: self.campaign(
                "report", [self.log], mutate_jsonl,
                lambda f: [r, "report", f, "--out", os.path.join(work, "r.html")], ".jsonl")
            plan["replay"] = lambda: self.campaign(
                "replay", [self.log], mutate_jsonl,
                lambda f: ["xvfb-run", "-a", r, "replay", f, "--frames", "40"], ".jsonl",
                timeout=4 * self.timeout)
            plan["resume"] = lambda: self.campaign(
                "resume", [self.log], mutate_jsonl,
                lambda f: ["xvfb-run", "-a", r, "live", "--demo", "--frames", "60", "--resume", f],
                ".jsonl", timeout=4 * self.timeout)
            plan["club_add"] = lambda: self.campaign(
                "club_add", [self.finished], mutate_jsonl,
                lambda f: [r, "club", "add", f, "--db", self.fresh(os.path.join(work, "c.sqlite"))],
                ".jsonl")
            plan["club_db"] = lambda: self.campaign(
                "club_db", [self.club], mutate_bytes,
                lambda f: [r, "club", "stats", "--db", f], ".sqlite")
        data = os.path.join(work, "data")
        for name in ("napoleonic.json", "ancient.json", "shot_rules.json", "stand_kinds.json",
                     "square_stacking.json"):
            def data_campaign(name=name):
                if os.path.exists(data):
                    shutil.rmtree(data)
                shutil.copytree(os.path.join(src, "engine/rulesets"),
                                os.path.join(data, "engine/rulesets"))
                shutil.copytree(os.path.join(src, "datasets"), os.path.join(data, "datasets"),
                                ignore=shutil.ignore_patterns("sample", "*.cpp", "*.hpp"))
                env = dict(os.environ, REFEREE_DATA_DIR=data)
                ruleset = "ancient" if name == "ancient.json" else "napoleonic"
                if name in ("napoleonic.json", "ancient.json"):
                    given = os.path.join(src, "datasets/rules_cases",
                                         ruleset + "_equal_exactly_three.json")
                    cmd = [r, "rules", "melee", given, "--json"]
                else:
                    given = os.path.join(src, "datasets/scenes/clear_hit.json")
                    cmd = [r, "adjudicate-scene", given, "--json"]
                self.campaign("data_" + name.removesuffix(".json"),
                              [os.path.join(src, "engine/rulesets", name)], mutate_json,
                              lambda f: cmd, ".json", env=env,
                              reads=os.path.join(data, "engine/rulesets", name),
                              also_named=[given])
            plan["data_" + name.removesuffix(".json")] = data_campaign
        for name, go in plan.items():
            if not only or name in only:
                go()

    @staticmethod
    def fresh(path):
        if os.path.exists(path):
            os.remove(path)
        return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--referee", default=os.path.join(SOURCE, "build/ui/referee"))
    ap.add_argument("--out", required=True, help="work directory (seeds are kept for reruns)")
    ap.add_argument("--count", type=int, default=100, help="mutants per campaign")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30, help="seconds before a run is a hang")
    ap.add_argument("--only", default="", help="comma-separated campaign names")
    args = ap.parse_args()
    fz = Fuzzer(args)
    fz.seeds()
    fz.run_all([c for c in args.only.split(",") if c])
    total = {}
    for counts in fz.totals.values():
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
    runs = sum(total.values())
    bad = sum(v for k, v in total.items() if k not in ("ok", "refused"))
    print(f"SUMMARY fuzz: campaigns {len(fz.totals)} runs {runs} ok {total.get('ok', 0)} "
          f"refused {total.get('refused', 0)} crash {total.get('crash', 0)} "
          f"hang {total.get('hang', 0)} unnamed {total.get('unnamed', 0)} "
          f"multiline {total.get('multiline', 0)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
