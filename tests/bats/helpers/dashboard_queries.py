#!/usr/bin/env python3
"""Runs every query of a Grafana dashboard against a Prometheus server.

usage: dashboard_queries.py DASHBOARD.json PROMETHEUS_URL [RATE_INTERVAL] [RANGE]

The template variables are resolved first, in order, as Grafana does:
label_values(SELECTOR, LABEL) through the series API, earlier variables
substituted into later ones; each must have at least one value. Every
panel's every target is then an instant query, the variables replaced by
the regex of all their values (Grafana's "All" for a multi-value
variable), $__rate_interval and $__range by the given durations. One line
per variable and per query; exit 1 when a variable has no value or a
query errors or returns no series with a number (NaN: an empty
histogram). Grafana itself is not needed.
"""
import json
import re
import sys
import time
import urllib.parse
import urllib.request


def api(base, path, params):
    url = f"{base}{path}?{urllib.parse.urlencode(params, doseq=True)}"
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:   # a bad query is a 400 with a JSON body
        return json.load(e)


def regex_of(values):
    """As Grafana writes a multi-value variable into a PromQL regex: its
    metacharacters escaped once for the regex, that backslash once more
    for the double-quoted string."""
    return "(" + "|".join(re.sub(r"([\\^$*+?.()|{}\[\]])", r"\\\\\1", v) for v in values) + ")"


def substitute(expr, resolved, rate_interval, rng):
    for name, values in resolved.items():
        expr = expr.replace("${" + name + "}", regex_of(values)).replace("$" + name, regex_of(values))
    return expr.replace("$__rate_interval", rate_interval).replace("$__range", rng)


def structure(dash):
    """What Grafana's import needs of the document itself."""
    bad = []
    ids = [p["id"] for p in dash["panels"]]
    if len(ids) != len(set(ids)):
        bad.append("panel ids repeat")
    if "__inputs" in dash:
        bad.append("__inputs: the data source is a template variable, not an import input")
    for p in dash["panels"]:
        g = p.get("gridPos", {})
        if not all(k in g for k in "hwxy") or g["x"] + g["w"] > 24:
            bad.append(f"panel {p['id']} {p['title']!r}: gridPos {g}")
        if p["type"] != "row" and p.get("datasource", {}).get("uid") != "${datasource}":
            bad.append(f"panel {p['id']} {p['title']!r}: data source is not ${{datasource}}")
    return bad


def main():
    path, base = sys.argv[1], sys.argv[2].rstrip("/")
    rate_interval = sys.argv[3] if len(sys.argv) > 3 else "30s"
    rng = sys.argv[4] if len(sys.argv) > 4 else "5m"
    dash = json.load(open(path))
    failed = 0
    for b in structure(dash):
        print(f"structure: {b} FAIL")
        failed += 1

    resolved = {}
    now = time.time()
    for v in dash["templating"]["list"]:
        if v["type"] != "query":
            continue
        q = v["query"]["query"] if isinstance(v["query"], dict) else v["query"]
        m = re.fullmatch(r"label_values\((.*),\s*(\w+)\)", substitute(q, resolved, rate_interval, rng))
        if not m:
            print(f"variable {v['name']}: cannot read {q!r} FAIL")
            failed += 1
            continue
        r = api(base, f"/api/v1/label/{m.group(2)}/values",
                {"match[]": m.group(1), "start": now - 3600, "end": now})
        values = r.get("data") or []
        ok = r.get("status") == "success" and values
        print(f"variable {v['name']}: {len(values)} values {values[:20]}{'' if ok else ' FAIL'}")
        failed += not ok
        resolved[v["name"]] = values or ["none"]

    n = 0
    for p in dash["panels"]:
        for t in p.get("targets", []):
            n += 1
            expr = substitute(t["expr"], resolved, rate_interval, rng)
            r = api(base, "/api/v1/query", {"query": expr})
            res = (r.get("data") or {}).get("result") or []
            # NaN is a histogram with nothing in it: a panel of those shows nothing
            data = [x for x in res if x["value"][1] not in ("NaN", "+Inf", "-Inf")]
            ok = r.get("status") == "success" and len(data) > 0
            sample = data[0]["value"][1] if data else r.get("error", "no series with a number")
            print(f"{p['title']} [{t['refId']}]: {len(res)} series, {len(data)} with a number, "
                  f"e.g. {sample}{'' if ok else ' FAIL'}")
            if not ok:
                print(f"    {expr}")
            failed += not ok
    print(f"{n} queries, {len(resolved)} variables, {failed} failed")
    return 1 if failed or not n else 0


if __name__ == "__main__":
    sys.exit(main())
