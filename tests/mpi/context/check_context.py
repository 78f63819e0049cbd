"""Checks of the machine context of mpiprof's protocol: Machine, Placement and
Hardware counters in the Parameters, the per-interval "--- Hardware
counters ---" part, and the JSON saying the same (see test_machine.sh,
test_two_hosts.sh, test_counters_sde.sh, test_counters_none.sh).

usage:
  check_context.py machine PROT.json PROT.txt SCHEMA LSTOPO.xml BINDDIR MODE
      MODE: bound | unbound | oversubscribed | shared.  Machine must be what
      lstopo reports (CPU model, packages, cores, hardware threads, NUMA
      nodes, memory, caches), Placement each rank's binding as hwloc-bind
      --get reported it (BINDDIR/bind.RANK), with the warning MODE implies.
  check_context.py two-hosts PROT.json PROT.txt SCHEMA HOST...
      Nodes and Placement by host name (one rank per host, in rank order),
      one node type shared by all of them.
  check_context.py sde PROT.json PROT.txt SCHEMA on|off
      the exact counts of tests/mpi/context/counters_sde.c.
  check_context.py none PROT.json PROT.txt SCHEMA EVENT...
      no event could be counted: each EVENT is named in the Warnings with
      PAPI's reason, one line says so, nothing is counted anywhere.
  check_context.py counted PROT.json PROT.txt SCHEMA EVENT...
      every EVENT counted in every interval (machines with counters).
  check_context.py task-clock PROT.json PROT.txt SCHEMA EVENT
      EVENT is the kernel's task clock, counted with the inside/outside-MPI
      split: counts consistent with the interval's and the MPI calls' times.
  check_context.py same-structure A.txt B.txt
      the two text protocols have the same lines apart from numbers and
      the Configuration, Hardware counters and Warnings parameters.
  check_context.py na PROT.json PROT.txt SCHEMA hwloc|papi
      built without that library: n/a with the reason, null in the JSON.
"""
import re
import sys
import xml.etree.ElementTree as ET

import protocol_check as pc

fail = pc.fail


# --------------------------------------------------------------------------
# The text protocol

COUNTERS = "--- Hardware counters ---"
STAT = re.compile(r"^   (total|inside MPI|outside MPI)\s+sum=(\d+)  min=(\d+) \(rank (\d+)\)  "
                  r"max=(\d+) \(rank (\d+)\)  mean=([0-9.]+)$")


def text_counters(part):
    """{event: {"component", "total"/"inside_mpi"/"outside_mpi": stat,
    "by_process": {rank: (total, inside, outside)}}} of a counters part."""
    events, cur = {}, None
    keys = {"total": "total", "inside MPI": "inside_mpi", "outside MPI": "outside_mpi"}
    for ln in part:
        m = re.match(r"^(\S+)  \(component (\S+)\)$", ln)
        if m:
            cur = events.setdefault(m.group(1), {"component": m.group(2), "by_process": {}})
            continue
        if cur is None or not ln.startswith("   "):
            cur = None
            continue
        m = STAT.match(ln)
        if m:
            cur[keys[m.group(1)]] = {"sum": int(m.group(2)), "min": int(m.group(3)),
                                     "min_rank": int(m.group(4)), "max": int(m.group(5)),
                                     "max_rank": int(m.group(6)), "mean": float(m.group(7))}
            continue
        m = re.match(r"^   (total|inside MPI|outside MPI)\s+n/a$", ln)
        if m:
            cur[keys[m.group(1)]] = None
            continue
        if ln.startswith("   by process"):
            for r, tot, inner, outer in re.findall(
                    r"(\d+): (-|\d+)(?: \(in (\d+), out (\d+)\))?", ln[len("   by process"):]):
                cur["by_process"][int(r)] = (
                    None if tot == "-" else int(tot),
                    int(inner) if inner else None, int(outer) if outer else None)
    return events


def check_counters_text(doc, text_lines):
    """Text and JSON give the same counts in every interval."""
    blocks = pc.interval_blocks(text_lines)
    for iv in doc["intervals"]:
        where = "interval %s (%r)" % (iv["id"], iv["name"])
        part = pc.text_part(blocks[iv["id"]], COUNTERS, where)
        hc = iv.get("hardware_counters")
        if hc is None:
            if len(part) != 1:
                fail("%s: no counters in the JSON, but the text says %r" % (where, part))
            continue
        text = text_counters(part)
        names = [e["name"] for e in hc["events"]]
        if list(text) != names:
            fail("%s: events %r in the text, %r in the JSON" % (where, list(text), names))
        for e in hc["events"]:
            t = text[e["name"]]
            if t["component"] != e["component"]:
                fail("%s: %s component %r / %r" % (where, e["name"], t["component"], e["component"]))
            for key in ("total", "inside_mpi", "outside_mpi"):
                js = e[key]
                if key not in t:
                    if js is not None:
                        fail("%s: %s %s is in the JSON, not in the text" % (where, e["name"], key))
                    continue
                if (js is None) != (t[key] is None):
                    fail("%s: %s %s: text %r, JSON %r" % (where, e["name"], key, t[key], js))
                if js is None:
                    continue
                for k in ("sum", "min", "min_rank", "max", "max_rank"):
                    if t[key][k] != js[k]:
                        fail("%s: %s %s.%s: text %r, JSON %r" % (where, e["name"], key, k, t[key][k], js[k]))
                if abs(t[key]["mean"] - js["mean"]) > 0.051:
                    fail("%s: %s %s.mean: text %r, JSON %r" % (where, e["name"], key, t[key]["mean"],
                                                               js["mean"]))
            bp = e["by_process"]
            for i, r in enumerate(bp["ranks"]):
                tt = t["by_process"].get(r)
                if tt is None:
                    fail("%s: %s: rank %d missing from the text's by process" % (where, e["name"], r))
                if tt[0] != bp["total"][i]:
                    fail("%s: %s rank %d total: text %r, JSON %r" % (where, e["name"], r, tt[0],
                                                                     bp["total"][i]))
                if "inside_mpi" in bp and bp["inside_mpi"][i] is not None and \
                        (tt[1], tt[2]) != (bp["inside_mpi"][i], bp["outside_mpi"][i]):
                    fail("%s: %s rank %d inside/outside: text %r, JSON %r" % (
                        where, e["name"], r, tt[1:], (bp["inside_mpi"][i], bp["outside_mpi"][i])))


# --------------------------------------------------------------------------
# Machine and placement

def pus_of_bitmap(text):
    """OS indexes set in an hwloc bitmap string ("0x00000003",
    "0x00000001,0x00000000": 32-bit words, most significant first)."""
    words = text.strip().split(",")
    value = 0
    for w in words:
        w = w.strip()
        if w.startswith("0x"):
            w = w[2:]
        value = (value << 32) | int(w or "0", 16)
    return sorted(i for i in range(value.bit_length()) if value >> i & 1)


def lstopo_machine(path):
    """What lstopo reports: the fields of one node type."""
    root = ET.parse(path).getroot()
    objs = list(root.iter("object"))

    def count(t):
        return sum(1 for o in objs if o.get("type") == t)

    models = []
    for o in objs:
        if o.get("type") == "Package":
            for info in o.findall("info"):
                if info.get("name") == "CPUModel" and info.get("value") not in models:
                    models.append(info.get("value"))
    caches = {}
    for key, typ, ctype in (("l1d", "L1Cache", ("0", "1")), ("l1i", "L1iCache", ("2",)),
                            ("l2", "L2Cache", ("0", "1")), ("l3", "L3Cache", ("0", "1"))):
        found = [o for o in objs if o.get("type") == typ and o.get("cache_type", "0") in ctype]
        caches[key] = {"size_bytes": int(found[0].get("cache_size")), "count": len(found)} \
            if found else None
    memory = sum(int(o.get("local_memory", "0")) for o in objs if o.get("type") == "NUMANode")
    machine = [o for o in objs if o.get("type") == "Machine"][0]
    allowed = pus_of_bitmap(machine.get("allowed_cpuset", machine.get("cpuset")))
    return {"cpu_model": " + ".join(models), "packages": count("Package"), "cores": count("Core"),
            "hardware_threads": count("PU"), "numa_nodes": count("NUMANode"),
            "memory_bytes": memory, "caches": caches}, allowed


def expand_runs(host):
    """{rank: [PU, ...] or None} of a JSON placement host."""
    out = {}
    for run in host["runs"]:
        for i in range(run["count"]):
            r = run["first_rank"] + i * run["rank_step"]
            out[r] = None if run["bound"] is None else [p + i * run["pu_step"] for p in run["pus"]]
    return out


def check_machine_text(doc, params):
    """The Machine and Placement lines say what the JSON says."""
    value, lines = params["Machine"]
    types = doc["parameters"]["machine"]
    pc.check_equal("Machine", value, "%d node type%s" % (len(types), "" if len(types) == 1 else "s"))
    for t, ln in zip(types, lines):
        want = "%s; host%s %s" % (t["description"], "" if len(t["hosts"]) == 1 else "s", t["hosts_text"])
        pc.check_equal("Machine line", ln, want)
    pl = doc["parameters"]["placement"]
    value, lines = params["Placement"]
    pc.check_equal("Placement", value, "%d host%s" % (len(pl["hosts"]), "" if len(pl["hosts"]) == 1 else "s"))
    want = [h["text"] for h in pl["hosts"]] + ["warning: " + w for w in pl["warnings"]]
    pc.check_equal("Placement lines", lines, want)
    for w in pl["warnings"]:
        if w not in pc.warnings(doc):
            fail("the placement warning %r is not in the Warnings" % w)


def cmd_machine(doc, text_path, lstopo, binddir, mode):
    params = pc.text_parameters(pc.read_lines(text_path))
    p = doc["parameters"]
    want, allowed = lstopo_machine(lstopo)
    types = p["machine"]
    if not isinstance(types, list) or len(types) != 1:
        fail("Machine: expected one node type, got %r" % types)
    t = types[0]
    for k, v in want.items():
        if t[k] != v:
            fail("Machine %s = %r, lstopo reports %r" % (k, t[k], v))
    check_machine_text(doc, params)
    pc.check_equal("Nodes", p["nodes"], 1)
    hosts = p["placement"]["hosts"]
    pc.check_equal("placement hosts", len(hosts), 1)
    pc.check_equal("Machine hosts", t["hosts"], [hosts[0]["host"]])
    nproc = p["processes"]
    pc.check_equal("ranks on the host", hosts[0]["ranks"], nproc)
    got = expand_runs(hosts[0])
    for r in range(nproc):
        with open("%s/bind.%d" % (binddir, r)) as f:
            bound = pus_of_bitmap(f.read())
        if got.get(r) != bound:
            fail("rank %d: Placement gives PU %r, hwloc-bind --get reported %r (placement %r)"
                 % (r, got.get(r), bound, hosts[0]["text"]))
        unbound = set(bound) >= set(allowed)
        run = [x for x in hosts[0]["runs"]
               if r in range(x["first_rank"], x["first_rank"] + x["count"] * max(x["rank_step"], 1),
                             max(x["rank_step"], 1))][0]
        if run["bound"] == unbound:
            fail("rank %d: bound=%r in the JSON but its binding %r %s every allowed PU %r"
                 % (r, run["bound"], bound, "covers" if unbound else "does not cover", allowed))
    text = hosts[0]["text"]
    host = hosts[0]["host"]
    pw = p["placement"]["warnings"]
    last = nproc - 1
    if mode == "bound":
        # with one PU per rank, consecutive: the compact form, one range of
        # ranks bound to one range of PUs
        if all(got[r] == [got[0][0] + r] for r in range(nproc)):
            pc.check_equal("Placement line", text, "%s: ranks 0-%d bound to PU %d-%d"
                           % (host, last, got[0][0], got[0][0] + last))
        if pw:
            fail("unexpected placement warnings %r" % pw)
    elif mode == "unbound":
        pc.check_equal("Placement line", text, "%s: ranks 0-%d unbound" % (host, last))
        if pw:
            fail("unexpected placement warnings %r" % pw)
    elif mode == "oversubscribed":
        pc.check_equal("Placement line", text, "%s: ranks 0-%d unbound" % (host, last))
        want_w = "%s: %d ranks on %d core%s and ranks 0-%d unbound: the node is oversubscribed, ranks " \
                 "compete for cores" % (host, nproc, t["cores"], "" if t["cores"] == 1 else "s", last)
        pc.check_equal("placement warnings", pw, [want_w])
    elif mode == "shared":
        pus = sorted(set(p for r in got for p in got[r]))
        want_w = "%s: ranks 0-%d share cores: %d ranks bound to 1 core (PU %s)" \
                 % (host, last, nproc, ",".join(map(str, pus)))
        pc.check_equal("placement warnings", pw, [want_w])
    else:
        fail("unknown mode %r" % mode)
    # What lstopo says, the text says: the node-type line has every number.
    line = params["Machine"][1][0]
    for needle in ("%d package" % want["packages"], "%d core" % want["cores"],
                   "%d hardware thread" % want["hardware_threads"], "%d NUMA node" % want["numa_nodes"]):
        if needle not in line:
            fail("the Machine line %r lacks %r" % (line, needle))
    if want["cpu_model"] and not line.startswith(want["cpu_model"]):
        fail("the Machine line %r does not start with the CPU model %r" % (line, want["cpu_model"]))


def cmd_two_hosts(doc, text_path, hosts):
    p = doc["parameters"]
    pc.check_equal("Nodes", p["nodes"], len(hosts))
    params = pc.text_parameters(pc.read_lines(text_path))
    pc.check_equal("Nodes (text)", params["Nodes"][0], str(len(hosts)))
    if p["machine"] is None:  # built without hwloc: the host count still comes from the nodes
        return
    check_machine_text(doc, params)
    types = p["machine"]
    pc.check_equal("node types", len(types), 1)
    pc.check_equal("hosts of the node type", sorted(types[0]["hosts"]), sorted(hosts))
    placed = p["placement"]["hosts"]
    pc.check_equal("placement hosts", [h["host"] for h in placed], hosts)
    for r, h in enumerate(placed):
        pc.check_equal("ranks on %s" % hosts[r], h["ranks"], 1)
        if list(expand_runs(h)) != [r]:
            fail("host %s: ranks %r, expected [%d]" % (hosts[r], list(expand_runs(h)), r))
        if not h["text"].startswith("%s: rank %d " % (hosts[r], r)):
            fail("placement line %r does not start with '%s: rank %d '" % (h["text"], hosts[r], r))


# --------------------------------------------------------------------------
# Counters

WORK, PHASES = "sde:::mpiprof_test::WORK", "sde:::mpiprof_test::PHASES"


def sde_expected(interval, event, rank):
    """(total, inside) of counters_sde.c's event in the interval on a rank;
    None: the rank does not enter the interval."""
    phase = 1000 * (rank + 1)
    return {
        ("whole program", WORK): (100 + phase + 30 + 5 + (3 if rank == 0 else 0), 30),
        ("phase", WORK): (phase + 30, 30),
        ("only0", WORK): (3, 0) if rank == 0 else None,
        ("whole program", PHASES): (1, 0),
        ("phase", PHASES): (1, 0),
        ("only0", PHASES): (0, 0) if rank == 0 else None,
    }[(interval, event)]


def loc(values, pick):
    """MPI_MINLOC / MPI_MAXLOC of {rank: value}: the value and its lowest rank."""
    v = pick(values.values())
    return v, min(r for r, x in values.items() if x == v)


def cmd_sde(doc, text_path, split):
    split = split == "on"
    hc = doc["parameters"]["hardware_counters"]
    if hc is None:
        fail("parameters.hardware_counters is null")
    pc.check_equal("events", [(e["name"], e["component"], e["processes"]) for e in hc["events"]],
                   [(WORK, "sde", 2), (PHASES, "sde", 2)])
    pc.check_equal("split_mpi", hc["split_mpi"], split)
    pc.check_equal("none_reason", hc["none_reason"], None)
    params = pc.text_parameters(pc.read_lines(text_path))
    value, lines = params["Hardware counters"]
    if not re.match(r"^PAPI [0-9.]+, 2 events, inside/outside-MPI split %s, not multiplexed$"
                    % ("on" if split else "off"), value):
        fail("Hardware counters line %r" % value)
    pc.check_equal("Hardware counters lines", lines,
                   ["%s (component sde, counted on 2 of 2 processes)" % n for n in (WORK, PHASES)])
    names = [iv["name"] for iv in doc["intervals"]]
    pc.check_equal("intervals", names, ["whole program", "phase", "only0"])
    for iv in doc["intervals"]:
        events = {e["name"]: e for e in iv["hardware_counters"]["events"]}
        for ev in (WORK, PHASES):
            e = events[ev]
            where = "interval %r, %s" % (iv["name"], ev)
            want = [sde_expected(iv["name"], ev, r) for r in (0, 1)]
            bp = e["by_process"]
            pc.check_equal(where + " by_process ranks", bp["ranks"], [0, 1])
            pc.check_equal(where + " by_process total", bp["total"], [w and w[0] for w in want])
            tot = {r: w[0] for r, w in enumerate(want) if w}
            stat = e["total"]
            pc.check_equal(where + " total.sum", stat["sum"], sum(tot.values()))
            pc.check_equal(where + " total (min, min_rank)", (stat["min"], stat["min_rank"]), loc(tot, min))
            pc.check_equal(where + " total (max, max_rank)", (stat["max"], stat["max_rank"]), loc(tot, max))
            pc.check_equal(where + " total.mean", stat["mean"], sum(tot.values()) / len(tot))
            present = [(r, w) for r, w in enumerate(want) if w]
            if split:
                pc.check_equal(where + " by_process inside", bp["inside_mpi"], [w and w[1] for w in want])
                pc.check_equal(where + " by_process outside", bp["outside_mpi"],
                               [w and w[0] - w[1] for w in want])
                pc.check_equal(where + " inside.sum", e["inside_mpi"]["sum"], sum(w[1] for _, w in present))
                pc.check_equal(where + " outside.sum", e["outside_mpi"]["sum"],
                               sum(w[0] - w[1] for _, w in present))
            else:
                pc.check_equal(where + " inside_mpi", e["inside_mpi"], None)
                pc.check_equal(where + " outside_mpi", e["outside_mpi"], None)
                if "inside_mpi" in bp:
                    fail(where + ": by_process.inside_mpi without the split")
        pc.check_equal("derived rates of interval %r" % iv["name"], iv["hardware_counters"]["derived"], [])
    check_counters_text(doc, pc.read_lines(text_path))


def cmd_none(doc, text_path, events):
    hc = doc["parameters"]["hardware_counters"]
    if hc is None:
        fail("parameters.hardware_counters is null: PAPI did not run")
    pc.check_equal("events counted", hc["events"], [])
    if not hc["none_reason"]:
        fail("no none_reason")
    for ev in events:
        w = pc.need_warning(doc, "hardware counter %s cannot be counted (PAPI" % ev, "it is dropped")
        if not re.search(r"\(PAPI(_start)?: [^)]+\)", w):
            fail("the warning %r does not give PAPI's reason" % w)
    params = pc.text_parameters(pc.read_lines(text_path))
    value, lines = params["Hardware counters"]
    if not value.startswith("none counted (PAPI ") or lines:
        fail("the Hardware counters parameter is not one 'none counted' line: %r %r" % (value, lines))
    pc.check_equal("summary", hc["summary"], value)
    blocks = pc.interval_blocks(pc.read_lines(text_path))
    for iv in doc["intervals"]:
        pc.check_equal("interval %r hardware_counters" % iv["name"], iv.get("hardware_counters"), None)
        pc.check_equal("interval %r counters part" % iv["name"], pc.text_part(blocks[iv["id"]], COUNTERS),
                       ["none counted (see Hardware counters in the Parameters)"])


def cmd_counted(doc, text_path, events):
    hc = doc["parameters"]["hardware_counters"]
    pc.check_equal("events counted", [e["name"] for e in hc["events"]], events)
    for iv in doc["intervals"]:
        for e in iv["hardware_counters"]["events"]:
            if e["total"] is None or e["total"]["sum"] <= 0:
                fail("interval %r: %s counted nothing: %r" % (iv["name"], e["name"], e["total"]))
    if "PAPI_TOT_INS" in events and "PAPI_TOT_CYC" in events:
        keys = [d["key"] for d in doc["intervals"][0]["hardware_counters"]["derived"]]
        if "ipc" not in keys:
            fail("no IPC with PAPI_TOT_INS and PAPI_TOT_CYC counted: %r" % keys)
    check_counters_text(doc, pc.read_lines(text_path))


def cmd_task_clock(doc, text_path, event):
    """The kernel's task clock (ns of CPU time of the counted thread) per
    interval and process: at most the wall time the process spent in the
    interval, inside MPI at most its time in MPI, inside + outside = total,
    and most of the busy interval "compute"."""
    hc = doc["parameters"]["hardware_counters"]
    pc.check_equal("events", [e["name"] for e in hc["events"]], [event])
    pc.check_equal("split_mpi", hc["split_mpi"], True)
    slack = 2e6  # ns: reads at the boundaries, clock granularity
    for iv in doc["intervals"]:
        real = iv["real"]["by_process"]
        e = iv["hardware_counters"]["events"][0]
        bp = e["by_process"]
        for i, r in enumerate(bp["ranks"]):
            where = "interval %r, rank %d, %s" % (iv["name"], r, event)
            tot, inside, outside = bp["total"][i], bp["inside_mpi"][i], bp["outside_mpi"][i]
            wall = real["execution_time"][real["ranks"].index(r)] * 1e9
            comm = real["communication"][real["ranks"].index(r)] * 1e9
            if tot is None or inside is None or outside is None:
                fail("%s: no count (%r, %r, %r)" % (where, tot, inside, outside))
            if inside + outside != tot:
                fail("%s: inside %d + outside %d != total %d" % (where, inside, outside, tot))
            if tot > wall * 1.05 + slack:
                fail("%s: %d ns of CPU time in %.0f ns of wall time" % (where, tot, wall))
            if inside > comm * 1.05 + slack:
                fail("%s: %d ns of CPU time inside MPI, but only %.0f ns in MPI calls" % (where, inside, comm))
            if iv["name"] == "compute" and tot < 0.2 * wall:
                fail("%s: %d ns of CPU time in a busy interval of %.0f ns" % (where, tot, wall))
    check_counters_text(doc, pc.read_lines(text_path))


NUMBER = re.compile(r"[-+]?\d+(\.\d+)?(e[-+]?\d+)?")


def cmd_same_structure(a_path, b_path):
    skip = ("Program", "Started", "Finished", "Protocol written", "Configuration", "Hardware counters",
            "Warnings", "Working directory")

    def shape(path):
        out, label, src, digest = [], None, None, False
        for ln in pc.read_lines(path) + ["==== end"]:
            # the digest orders its parts and SRC points by time, which differs between runs
            digest = ln == "Digest" or (digest and ln != "")
            if digest:
                continue
            m = re.match(r"^(\S[^:]*?)\s*: ", ln)
            if m and not ln.startswith(" "):
                label = m.group(1)
            elif not ln.startswith("   "):
                label = None
            if label in skip:
                continue
            ln = NUMBER.sub("N", ln.replace("n/a", "N")).rstrip()  # a value may be n/a in one run
            # which of the model's two measurements was the better differs between runs
            ln = re.sub(r"at MPI_(Init|Finalize) \(MPI_(Init|Finalize): ", "at MPI_x (MPI_y: ", ln)
            # SRC points come by time: compare them as a set of blocks
            if ln == "--- SRC points ---" or ln.startswith("--- SRC points of the whole run"):
                if src is not None:  # interval 0's own, before the whole run's
                    out.extend(x for block in sorted(src) for x in block)
                out.append(ln)
                src = []
                continue
            if src is not None and (ln.startswith("====") or ln.startswith("---") or not ln):
                out.extend(x for block in sorted(src) for x in block)
                src = None
            if src is not None:
                if ln.lstrip().startswith("SRC ") or not src:
                    src.append([])
                src[-1].append(re.sub(r"^(\s*)SRC N", r"\1SRC", ln))
                continue
            out.append(ln)
        return out

    a, b = shape(a_path), shape(b_path)
    if a != b:
        diff = [(x, y) for x, y in zip(a, b) if x != y][:5]
        fail("the protocols differ beyond numbers and the counter parameters (%d / %d lines); first "
             "differences: %r" % (len(a), len(b), diff))


def cmd_na(doc, text_path, what):
    params = pc.text_parameters(pc.read_lines(text_path))
    p = doc["parameters"]
    if what == "hwloc":
        for label in ("Machine", "Placement"):
            value, lines = params[label]
            if not value.startswith("n/a (mpiprof was built without hwloc") or lines:
                fail("%s: %r %r" % (label, value, lines))
        pc.check_equal("machine", p["machine"], None)
        pc.check_equal("placement", p["placement"], None)
        pc.need_warning(doc, "Machine and Placement are n/a: mpiprof was built without hwloc")
    elif what == "papi":
        value, lines = params["Hardware counters"]
        if not value.startswith("n/a (mpiprof was built without PAPI") or lines:
            fail("Hardware counters: %r %r" % (value, lines))
        pc.check_equal("hardware_counters", p["hardware_counters"], None)
        pc.need_warning(doc, "Hardware counters are n/a: mpiprof was built without PAPI")
        blocks = pc.interval_blocks(pc.read_lines(text_path))
        for iv in doc["intervals"]:
            pc.check_equal("interval hardware_counters", iv.get("hardware_counters"), None)
            pc.check_equal("interval counters part", pc.text_part(blocks[iv["id"]], COUNTERS),
                           ["n/a (see Hardware counters in the Parameters)"])
    else:
        fail("unknown library %r" % what)


# each command: (its function, how many arguments after PROT.json PROT.txt
# SCHEMA; None: any number)
COMMANDS = {"machine": (cmd_machine, 3), "two-hosts": (cmd_two_hosts, None), "sde": (cmd_sde, 1),
            "none": (cmd_none, None), "counted": (cmd_counted, None), "task-clock": (cmd_task_clock, 1),
            "na": (cmd_na, 1)}


def main(*argv):
    if len(argv) == 3 and argv[0] == "same-structure":
        cmd_same_structure(argv[1], argv[2])
        return
    if len(argv) < 4 or argv[0] not in COMMANDS:
        pc.bad_usage()
    (cmd, nargs), text, rest = COMMANDS[argv[0]], argv[2], argv[4:]
    if nargs is not None and len(rest) != nargs:
        pc.bad_usage()
    doc = pc.load_checked(argv[1], text, argv[3], say=False)
    if nargs is None:
        cmd(doc, text, list(rest))
    else:
        cmd(doc, text, *rest)


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
