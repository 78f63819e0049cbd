/* mpiprof-view: draws the page from the protocols' JSON inlined above
 * (src/write/view.c writes it).  No network, no library: plain DOM, bars
 * of CSS boxes, a canvas strip for many processes.  Works by keyboard
 * (tree and table move with the arrow keys, Enter selects) and prints. */
"use strict";
(function () {
  // --- the characteristics: keys of the protocol, labels, units
  var MAIN_ROWS = [
    ["parallelization_efficiency", "Parallelization efficiency (K_eff)", "ratio", 0],
    ["execution_time", "Execution time", "s", 0],
    ["processors", "Processors", "processes", 0],
    ["total_time", "Total time", "s", 0],
    ["productive_time", "Productive time", "s", 0],
    ["productive_cpu", "CPU", "s", 1],
    ["productive_sys", "Sys", "s", 1],
    ["productive_io", "I/O", "s", 1],
    ["lost_time", "Lost time", "s", 0],
    ["insufficient_parallelism", "Insufficient parallelism", "s", 1],
    ["communication", "Communication", "s", 1],
    ["sendrecv", "SendRecv", "s", 2],
    ["real_sync", "Real sync", "s", 3],
    ["collective", "Collective", "s", 2],
    ["system", "System", "s", 2],
    ["idle_time", "Idle time", "s", 1],
    ["load_imbalance", "Load imbalance (potential loss)", "s", 0],
    ["potential_sync", "Potential sync", "s", 0],
    ["time_variation", "Time variation", "s", 0],
    ["overlap", "Overlap", "s", 0]
  ];
  var PER_PROCESS = ["execution_time", "productive_time", "lost_time", "insufficient_parallelism",
    "communication", "sendrecv", "real_sync", "collective", "system", "idle_time", "load_imbalance",
    "potential_sync", "time_variation", "overlap"];
  var LABEL = {};
  MAIN_ROWS.forEach(function (r) { LABEL[r[0]] = r[1]; });
  // The parts of Total time a bar shows, in order: Productive, then the
  // parts of Lost time (SendRecv less its Real sync, Real sync, ...).
  var PARTS = [
    ["productive", "Productive time", "--c-productive"],
    ["insufficient_parallelism", "Insufficient parallelism", "--c-insufficient"],
    ["sendrecv_rest", "SendRecv (without Real sync)", "--c-sendrecv"],
    ["real_sync", "Real sync", "--c-realsync"],
    ["collective", "Collective", "--c-collective"],
    ["system", "System", "--c-system"],
    ["idle_time", "Idle time", "--c-idle"]
  ];
  // The parts Lost time is the sum of: what a comparison says grew.
  var LOST_PARTS = ["insufficient_parallelism", "sendrecv", "collective", "system", "idle_time"];

  var data, A, B, findings, digest;
  // inclusive: the SRC table lists the calls of the interval's sub-intervals too (view_digest.js)
  var state = { interval: 0, src: null, sort: "time", descending: true, fn: "", inclusive: false };
  var matchB = null, matchSrc = null; // A's interval index -> B's interval; -> B's SRC index by A's
  var traceLinks = null; // view_trace.js: the selected SRC point's calls in a trace

  function $(id) { return document.getElementById(id); }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function isNum(x) { return typeof x === "number" && isFinite(x); }
  var NA = '<span class="na" title="not computed: the reason is in Warnings">n/a</span>';
  function grouped(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009"); }
  function sec(x) { return isNum(x) ? x.toFixed(6) + "\u00a0s" : NA; }
  function ratio(x) { return isNum(x) ? x.toFixed(4) : NA; }
  function count(x, unit) { return isNum(x) ? grouped(x) + (unit ? "\u00a0" + unit : "") : NA; }
  function bytes(x) { return isNum(x) ? grouped(x) + "\u00a0B" : NA; }
  function pct(x) { return isNum(x) ? (100 * x).toFixed(1) + "\u00a0%" : NA; }
  function fmt(x, unit) {
    if (unit === "s") return sec(x);
    if (unit === "ratio") return ratio(x);
    return count(x, unit);
  }
  function signed(x, unit) {
    if (!isNum(x)) return NA;
    var s = (x > 0 ? "+" : x < 0 ? "\u2212" : "\u00b1") +
      Math.abs(x).toFixed(unit === "ratio" ? 4 : unit === "processes" ? 0 : 6);
    return s + (unit === "s" ? "\u00a0s" : unit === "processes" ? "\u00a0processes" : "");
  }
  function baseName(p) { var i = p.lastIndexOf("/"); return i < 0 ? p : p.slice(i + 1); }
  function color(v) { return "var(" + v + ")"; }

  // --- data: intervals by id, stacks, indexes
  function prepare(p) {
    var doc = p.doc;
    p.byId = {};
    doc.intervals.forEach(function (iv, i) { p.byId[iv.id] = i; iv.index = i; iv.children = []; });
    doc.intervals.forEach(function (iv) {
      if (iv.parent !== null && p.byId[iv.parent] !== undefined) doc.intervals[p.byId[iv.parent]].children.push(iv);
    });
    p.stack = function (s) { return s.stack || doc.stacks[String(s.id)] || []; };
  }
  // Which of B's intervals and SRC points is which of A's: the matching of
  // mpiprof-compare (by name and place in the tree; by function and the
  // functions of the frames, lines breaking ties: src/compare/match.c),
  // computed by mpiprof-view and carried in data.matches.
  function matchProtocols() {
    var m = data.matches[data.protocols.indexOf(B)];
    matchB = A.doc.intervals.map(function (iv, i) {
      return m.intervals[i] === null ? null : B.doc.intervals[m.intervals[i]];
    });
    matchSrc = m.src;
  }
  function matchedSrc(iv, s, at) { // at: s's index in iv.src, when known
    var i = at === undefined ? iv.src.indexOf(s) : at;
    var other = matchB[iv.index], k = matchSrc[iv.index] ? matchSrc[iv.index][i] : null;
    return other && k !== null && k !== undefined ? other.src[k] : null;
  }
  // B's row of A's row s: matchedSrc, or with sub-intervals B's SRC number that A's matches
  var idB = null;
  function matchedRow(iv, s, at) {
    if (!state.inclusive || !iv.src_inclusive) return matchedSrc(iv, s, at);
    if (!idB) idB = {}, A.doc.intervals.forEach(function (x) {
      if (matchB[x.index]) x.src.forEach(function (y, k) { var b = matchedSrc(x, y, k); if (b) idB[y.id] = b.id; });
    });
    var other = matchB[iv.index];
    return other ? srcOf(other).filter(function (x) { return x.id === idB[s.id]; })[0] || null : null;
  }

  // --- Parameters
  function parametersHtml(p) {
    var q = p.doc.parameters, rows = [];
    function row(label, value) { rows.push("<dt>" + esc(label) + "</dt><dd>" + value + "</dd>"); }
    row("Program", "<code>" + esc(q.program) + "</code>");
    row("Working directory", "<code>" + esc(q.working_directory) + "</code>");
    row("Started / finished", esc(q.started) + " / " + esc(q.finished) + " (local time)");
    row("Protocol written", esc(q.protocol_written));
    row("Processes", count(q.processes, "processes") + " on " + count(q.nodes, q.nodes === 1 ? "node" : "nodes"));
    row("Threads level", esc(q.threads_level));
    if (q.threads) row("Threads", esc(q.threads.text));
    row("MPI library", esc(q.mpi_library) + " (MPI " + esc(q.mpi_standard) + ")");
    row("Profiler", esc(q.profiler) + ", collection mode " + esc(q.collection_mode));
    if (q.partial) row("Partial", "yes: the data of rank(s) " + esc(q.partial.ranks) + " (missing: " +
      esc(q.partial.missing || "none") + "), a run that ended without MPI_Finalize\n" +
      (q.partial.processes || []).map(function (e) { return esc(e.text || ""); }).join("\n"));
    row("Machine", q.machine === null ? NA : q.machine.map(function (m) {
      return esc(m.hosts_text + ": " + m.description);
    }).join("\n"));
    row("Placement", q.placement === null ? NA : q.placement.hosts.map(function (h) { return esc(h.text); }).join("\n"));
    row("Hardware counters", q.hardware_counters === null ? NA : esc(q.hardware_counters.summary || ""));
    row("Clock", esc(q.clock));
    row("Wait states", esc(q.wait_states));
    row("Prediction model", q.prediction_model === null ? NA :
      esc((q.prediction_model.text || [q.prediction_model.summary]).join("\n")));
    var cfg = Object.keys(q.configuration).sort().map(function (k) {
      var c = q.configuration[k];
      return esc(k + "=" + c.value + (c["default"] ? " (default)" : ""));
    });
    row("Configuration", cfg.join("\n"));
    row("Warnings", q.warnings.length ? '<ul class="warnings">' + q.warnings.map(function (w) {
      return "<li>" + esc(w) + "</li>";
    }).join("") + "</ul>" : "none");
    return "<dl>" + rows.join("") + "</dl>";
  }

  // --- the interval tree (WAI-ARIA tree: roving tabindex, arrow keys)
  function treeNode(iv) {
    var li = document.createElement("li");
    li.setAttribute("role", "treeitem");
    li.dataset.interval = iv.index;
    li.tabIndex = -1;
    li.setAttribute("aria-selected", "false");
    var m = iv.real.main, other = B ? matchB[iv.index] : null;
    var keff = isNum(m.parallelization_efficiency) ? m.parallelization_efficiency.toFixed(4) : "n/a";
    var html = '<div class="node"><span class="toggle" aria-hidden="true">' + (iv.children.length ? "\u25BE" : "") +
      '</span><span class="name">' + esc(iv.id) + " " + esc(iv.name) + "</span>" +
      '<span class="num" title="executions">' + esc(iv.executions) + "\u00d7</span>" +
      '<span class="num" title="parallelization efficiency K_eff">K<sub>eff</sub> ' + keff + "</span>" +
      '<span class="where">' + esc(baseName(iv.file) + ":" + iv.line) + ", level " + esc(iv.level) + "</span>" +
      (B && !other ? '<span class="missing-b">not in ' + esc(B.label) + "</span>" : "") + "</div>";
    li.innerHTML = html;
    li.setAttribute("aria-label", iv.name + ", " + iv.executions + " executions, K_eff " + keff);
    if (iv.children.length) {
      li.setAttribute("aria-expanded", "true");
      var ul = document.createElement("ul");
      ul.setAttribute("role", "group");
      iv.children.forEach(function (c) { ul.appendChild(treeNode(c)); });
      li.appendChild(ul);
    }
    return li;
  }
  function visibleItems() {
    return Array.prototype.filter.call($("tree").querySelectorAll("[role=treeitem]"), function (li) {
      for (var p = li.parentElement; p && p.id !== "tree"; p = p.parentElement)
        if (p.getAttribute("aria-expanded") === "false") return false;
      return true;
    });
  }
  function buildTree() {
    var tree = $("tree");
    tree.innerHTML = "";
    tree.appendChild(treeNode(A.doc.intervals[0]));
    tree.addEventListener("click", function (e) {
      var li = e.target.closest("[role=treeitem]");
      if (!li) return;
      if (e.target.classList.contains("toggle") && li.hasAttribute("aria-expanded")) {
        li.setAttribute("aria-expanded", li.getAttribute("aria-expanded") === "true" ? "false" : "true");
        e.stopPropagation();
        return;
      }
      selectInterval(+li.dataset.interval, true);
    });
    tree.addEventListener("keydown", function (e) {
      var li = e.target.closest("[role=treeitem]");
      if (!li) return;
      var items = visibleItems(), i = items.indexOf(li), to = null;
      if (e.key === "ArrowDown") to = items[i + 1];
      else if (e.key === "ArrowUp") to = items[i - 1];
      else if (e.key === "Home") to = items[0];
      else if (e.key === "End") to = items[items.length - 1];
      else if (e.key === "ArrowRight") {
        if (li.getAttribute("aria-expanded") === "false") li.setAttribute("aria-expanded", "true");
        else if (li.querySelector("[role=treeitem]")) to = li.querySelector("[role=treeitem]");
      } else if (e.key === "ArrowLeft") {
        if (li.getAttribute("aria-expanded") === "true") li.setAttribute("aria-expanded", "false");
        else to = li.parentElement.closest("[role=treeitem]");
      } else if (e.key === "Enter" || e.key === " ") {
        selectInterval(+li.dataset.interval, true);
      } else return;
      e.preventDefault();
      if (to) focusTreeItem(to);
    });
  }
  function focusTreeItem(li) {
    $("tree").querySelectorAll("[role=treeitem]").forEach(function (x) { x.tabIndex = -1; });
    li.tabIndex = 0;
    li.focus();
  }

  // --- characteristics of the selected interval
  function characteristicsHtml(iv) {
    var real = iv.real.main, pred = iv.predicted ? iv.predicted.main : null;
    var other = B ? matchB[iv.index] : null;
    var head = B ? "<th>Characteristic</th><th class=num>" + esc(A.label) + " (real)</th><th class=num>" +
      esc(B.label) + " (real)</th><th class=num>difference</th><th class=num>" + esc(A.label) +
      " (predicted)</th><th class=num>" + esc(B.label) + " (predicted)</th>"
      : "<th>Characteristic</th><th class=num>real</th><th class=num>share of total (real)</th>" +
        "<th class=num>predicted</th><th class=num>predicted \u2212 real</th>";
    var rows = MAIN_ROWS.map(function (r) {
      var k = r[0], unit = r[2], cls = r[3] ? ' class="indent' + r[3] + '"' : "";
      var cells = "<td" + cls + ">" + esc(r[1]) + "</td><td class=num>" + fmt(real[k], unit) + "</td>";
      if (B) {
        var bm = other ? other.real.main : null, bp = other && other.predicted ? other.predicted.main : null;
        var d = bm && isNum(bm[k]) && isNum(real[k]) ? bm[k] - real[k] : null;
        cells += "<td class=num>" + (bm ? fmt(bm[k], unit) : NA) + "</td><td class=num>" + signed(d, unit) +
          "</td><td class=num>" + (pred ? fmt(pred[k], unit) : NA) + "</td><td class=num>" +
          (bp ? fmt(bp[k], unit) : NA) + "</td>";
      } else {
        var share = unit === "s" && isNum(real[k]) && isNum(real.total_time) && real.total_time > 0 &&
          k !== "execution_time" ? pct(real[k] / real.total_time) : "";
        var pd = pred && isNum(pred[k]) && isNum(real[k]) ? pred[k] - real[k] : null;
        cells += "<td class=num>" + share + "</td><td class=num>" + (pred ? fmt(pred[k], unit) : NA) +
          "</td><td class=num>" + (pred ? signed(pd, unit) : NA) + "</td>";
      }
      return '<tr data-key="' + k + '">' + cells + "</tr>";
    });
    var note = !iv.predicted ? '<p class="hint">Predicted characteristics: n/a (the reason is in Warnings).</p>' : "";
    return '<table class="characteristics"><thead><tr>' + head + "</tr></thead><tbody>" + rows.join("") +
      "</tbody></table>" + note;
  }

  // The parts of Total time (PARTS) of a main section or a process's column.
  function partsOf(get) {
    var v = {};
    v.productive = get("productive_time");
    v.insufficient_parallelism = get("insufficient_parallelism");
    var sr = get("sendrecv"), rs = get("real_sync");
    v.real_sync = isNum(rs) ? rs : 0;
    v.sendrecv_rest = isNum(sr) ? Math.max(0, sr - v.real_sync) : null;
    v.collective = get("collective");
    v.system = get("system");
    v.idle_time = get("idle_time");
    return v;
  }
  function barHtml(v, scale, title) {
    var spans = PARTS.map(function (p) {
      var x = v[p[0]];
      if (!isNum(x) || x <= 0 || !(scale > 0)) return "";
      return '<span style="width:' + (100 * x / scale).toFixed(3) + "%;background:" + color(p[2]) +
        '" title="' + esc(p[1] + ": " + x.toFixed(6) + " s") + '"></span>';
    }).join("");
    return '<div class="bar" role="img" aria-label="' + esc(title) + '">' + spans + "</div>";
  }
  function legendHtml() {
    return '<ul class="legend">' + PARTS.map(function (p) {
      return '<li><i style="background:' + color(p[2]) + '"></i>' + esc(p[1]) + "</li>";
    }).join("") + "</ul>";
  }
  function total(v) { return PARTS.reduce(function (s, p) { return s + (isNum(v[p[0]]) ? v[p[0]] : 0); }, 0); }
  function barsHtml(iv) {
    var rows = [];
    function add(label, main) {
      if (!main) return;
      var v = partsOf(function (k) { return main[k]; });
      rows.push({ label: label, v: v, total: main.total_time, lost: main.lost_time });
    }
    add((B ? A.label + " " : "") + "real", iv.real.main);
    add((B ? A.label + " " : "") + "predicted", iv.predicted && iv.predicted.main);
    if (B && matchB[iv.index]) {
      var o = matchB[iv.index];
      add(B.label + " real", o.real.main);
      add(B.label + " predicted", o.predicted && o.predicted.main);
    }
    var scale = Math.max.apply(null, rows.map(function (r) { return total(r.v); }));
    return legendHtml() + rows.map(function (r) {
      var t = "Total time " + (isNum(r.total) ? r.total.toFixed(6) + " s" : "n/a") + ", lost " +
        (isNum(r.lost) ? r.lost.toFixed(6) + " s" : "n/a");
      return '<div class="bar-row"><span class="label">' + esc(r.label) + "</span>" + barHtml(r.v, scale, t) +
        '<span class="num">' + sec(r.total) + "</span></div>";
    }).join("") + '<p class="hint">Bars: Total time (execution time \u00d7 processors), split into productive ' +
      "time and the parts of Lost time; all bars on one scale. Numbers: the Characteristics table.</p>";
  }

  // --- by process: rows of bars (few), a strip and a histogram (many)
  function comparativeHtml(part) {
    var c = part.comparative;
    return '<table class="comparative"><thead><tr><th>Characteristic</th><th class=num>min</th><th class=num>rank</th>' +
      "<th class=num>max</th><th class=num>rank</th><th class=num>mean</th></tr></thead><tbody>" +
      PER_PROCESS.map(function (k) {
        var s = c[k];
        return '<tr data-key="' + k + '"><td>' + esc(LABEL[k]) + "</td>" + (s ? "<td class=num>" + sec(s.min) +
          "</td><td class=num>" + esc(s.min_rank) + "</td><td class=num>" + sec(s.max) + "</td><td class=num>" +
          esc(s.max_rank) + "</td><td class=num>" + sec(s.mean) + "</td>" : "<td colspan=5>" + NA + "</td>") + "</tr>";
      }).join("") + "</tbody></table>";
  }
  function processesHtml(p, iv) {
    var part = iv.real, by = part.by_process, n = by.ranks.length, P = p.doc.parameters.processes;
    var out = "";
    if (!n) {
      out += '<p>No per-process values: the run selected no process for them (MPIPROF_RANKS=' +
        esc((p.doc.parameters.configuration.MPIPROF_RANKS || { value: "auto" }).value) + ", " + esc(P) +
        " processes). Minimum, maximum and mean over all processes:</p>";
    } else if (n <= 64) {
      var texec = part.main.execution_time;
      out += legendHtml() + '<div class="p-rows">' + by.ranks.map(function (rank, i) {
        var entered = !by.entered || by.entered[i];
        if (!entered || !isNum(by.execution_time[i]))
          return '<div class="bar-row"><span class="label">rank ' + esc(rank) + '</span><span class="na">did not enter the interval</span><span></span></div>';
        var v = partsOf(function (k) { return by[k][i]; });
        return '<div class="bar-row"><span class="label">rank ' + esc(rank) + "</span>" +
          barHtml(v, texec, "rank " + rank + ": lost " + (isNum(by.lost_time[i]) ? by.lost_time[i].toFixed(6) : "n/a") + " s") +
          '<span class="num">lost ' + sec(by.lost_time[i]) + "</span></div>";
      }).join("") + "</div>";
    } else {
      out += '<p>' + esc(n) + " processes: each column of the strip is a process (or the mean of neighbouring " +
        "ranks, when they are more than its pixels), coloured by the parts of its execution time; below, how " +
        "many processes lost how much time.</p>" + legendHtml() +
        '<canvas class="strip" id="strip" width="1000" height="80" role="img" aria-label="parts of each process\'s execution time"></canvas>' +
        '<div class="axis"><span>rank ' + esc(by.ranks[0]) + "</span><span>rank " + esc(by.ranks[n - 1]) + "</span></div>" +
        histogramHtml(by.lost_time, "Lost time per process");
    }
    return out + comparativeHtml(part);
  }
  function histogramHtml(values, what) {
    var xs = values.filter(isNum);
    if (!xs.length) return "";
    var lo = Math.min.apply(null, xs), hi = Math.max.apply(null, xs), nb = 20, bins = new Array(nb).fill(0);
    xs.forEach(function (x) { bins[hi > lo ? Math.min(nb - 1, Math.floor((x - lo) / (hi - lo) * nb)) : 0]++; });
    var top = Math.max.apply(null, bins);
    return "<h4>" + esc(what) + "</h4><div class=\"histogram\" role=\"img\" aria-label=\"" + esc(what) + " histogram\">" +
      bins.map(function (b, i) {
        var from = lo + (hi - lo) * i / nb, to = lo + (hi - lo) * (i + 1) / nb;
        return '<span style="height:' + (100 * b / top).toFixed(1) + '%" title="' + b + " processes, " +
          from.toFixed(6) + " s to " + to.toFixed(6) + ' s"></span>';
      }).join("") + '</div><div class="axis"><span>' + lo.toFixed(6) + " s</span><span>" + nb +
      " bins; the tallest: " + top + " processes</span><span>" + hi.toFixed(6) + " s</span></div>";
  }
  function drawStrip(iv) {
    var canvas = $("strip");
    if (!canvas) return;
    var by = iv.real.by_process, n = by.ranks.length, ctx = canvas.getContext("2d");
    var w = Math.min(canvas.width, n), h = canvas.height, style = getComputedStyle(document.documentElement);
    canvas.width = w;
    var texec = iv.real.main.execution_time || 1;
    for (var x = 0; x < w; x++) {
      var from = Math.floor(x * n / w), to = Math.max(from + 1, Math.floor((x + 1) * n / w)), y = h;
      var sums = {};
      for (var i = from; i < to; i++) {
        var v = partsOf(function (k) { return by[k][i]; });
        PARTS.forEach(function (p) { sums[p[0]] = (sums[p[0]] || 0) + (isNum(v[p[0]]) ? v[p[0]] : 0); });
      }
      PARTS.forEach(function (p) {
        var part = sums[p[0]] / (to - from) / texec * h;
        ctx.fillStyle = style.getPropertyValue(p[2]).trim();
        ctx.fillRect(x, y - part, 1, part);
        y -= part;
      });
    }
  }

  // --- SRC points of the interval: a sortable, filterable table
  var COLUMNS = [
    ["id", "SRC", "num"], ["function", "MPI function", ""], ["site", "Call site", ""],
    ["calls", "Calls", "num"], ["bytes_sent", "Bytes sent", "num"], ["bytes_recv", "Bytes received", "num"],
    ["bytes_read", "Bytes read", "num"], ["bytes_written", "Bytes written", "num"],
    ["time", "Time (s)", "num"], ["predicted_time", "Predicted (s)", "num"], ["real_sync", "Real sync (s)", "num"],
    ["potential_sync", "Potential sync (s)", "num"], ["time_variation", "Time variation (s)", "num"]
  ];
  var COMPARE_COLUMNS = [
    ["id", "SRC", "num"], ["function", "MPI function", ""], ["site", "Call site", ""],
    ["calls", "Calls", "num"], ["calls_b", "Calls (B)", "num"], ["time", "Time (s)", "num"],
    ["time_b", "Time (B, s)", "num"], ["time_diff", "Difference (s)", "num"], ["real_sync", "Real sync (s)", "num"],
    ["potential_sync", "Potential sync (s)", "num"], ["time_variation", "Time variation (s)", "num"]
  ];
  function stat(s, k) { return s[k] ? s[k].sum : null; }
  // The SRC points the table lists: made in the interval, or with its sub-intervals'.
  function srcOf(iv) { return state.inclusive && iv.src_inclusive ? iv.src_inclusive : iv.src; }
  function srcRows(iv) {
    return srcOf(iv).map(function (s, at) {
      var stack = A.stack(s), b = B ? matchedRow(iv, s, at) : null;
      var row = { s: s, b: b, id: s.id, "function": s.function, site: stack.length ? stack[0].text : "?",
        calls: s.calls, bytes_sent: s.bytes_sent, bytes_recv: s.bytes_recv, time: s.time.sum,
        bytes_read: s.bytes_read, bytes_written: s.bytes_written, // MPI-IO (absent before they existed: n/a)
        predicted_time: stat(s, "predicted_time"), real_sync: stat(s, "real_sync"),
        potential_sync: stat(s, "potential_sync"), time_variation: stat(s, "time_variation") };
      if (B) {
        row.calls_b = b ? b.calls : null;
        row.time_b = b ? b.time.sum : null;
        row.time_diff = b ? b.time.sum - s.time.sum : null;
      }
      return row;
    });
  }
  function cell(row, c) {
    var k = c[0], x = row[k];
    if (k === "id") return '<td class="num">' + esc(x) + "</td>";
    if (k === "function") return "<td><code>" + esc(x) + "</code></td>";
    if (k === "site") {
      var frames = A.stack(row.s).map(function (f) { return f.text; }).join(" \u2190 ");
      return '<td class="site" title="' + esc(frames) + '"><code>' + esc(x) + "</code></td>";
    }
    var text = k === "calls" || k === "calls_b" ? count(x, "") : k.indexOf("bytes") === 0 ? bytes(x) :
      k === "time_diff" ? signed(x, "s") : isNum(x) ? x.toFixed(6) : NA; // seconds: the unit is in the header
    return '<td class="num" data-key="' + k + '" data-value="' + (isNum(x) ? x : "") + '">' + text + "</td>";
  }
  function renderSrcTable() {
    var iv = A.doc.intervals[state.interval], cols = B ? COMPARE_COLUMNS : COLUMNS;
    var rows = srcRows(iv), all = rows.length;
    // bytes read and written only where MPI-IO is: the table stays narrow without
    if (!rows.some(function (r) { return r.bytes_read || r.bytes_written; }))
      cols = cols.filter(function (c) { return c[0] !== "bytes_read" && c[0] !== "bytes_written"; });
    if (state.fn) rows = rows.filter(function (r) { return r["function"] === state.fn; });
    var k = state.sort, dir = state.descending ? -1 : 1;
    rows.sort(function (a, b) {
      var x = a[k], y = b[k];
      if (x === null || x === undefined) return y === null || y === undefined ? a.id - b.id : 1;
      if (y === null || y === undefined) return -1;
      if (typeof x === "string") return dir * x.localeCompare(y) || a.id - b.id;
      return dir * (x - y) || a.id - b.id;
    });
    var head = "<thead><tr>" + cols.map(function (c) {
      var sort = c[0] === state.sort ? (state.descending ? "descending" : "ascending") : "none";
      return '<th class="' + c[2] + '" aria-sort="' + sort + '"><button type="button" data-sort="' + c[0] + '">' +
        esc(c[1]) + "</button></th>";
    }).join("") + "</tr></thead>";
    var body = rows.map(function (r, i) {
      var selected = state.src === r.id;
      return '<tr data-src="' + r.id + '" tabindex="' + (i === 0 ? 0 : -1) + '" aria-selected="' + selected + '">' +
        cols.map(function (c) { return cell(r, c); }).join("") + "</tr>";
    }).join("");
    $("src-table").innerHTML = head + "<tbody>" + body + "</tbody>";
    $("src-count").textContent = rows.length + " of " + all + " SRC points" +
      (state.fn ? " (" + state.fn + ")" : "");
  }
  function functionFilter(iv) {
    var counts = {};
    srcOf(iv).forEach(function (s) { counts[s.function] = (counts[s.function] || 0) + 1; });
    var names = Object.keys(counts).sort();
    if (names.indexOf(state.fn) < 0) state.fn = "";
    $("function-filter").innerHTML = '<option value="">all (' + srcOf(iv).length + ")</option>" +
      names.map(function (n) {
        return '<option value="' + esc(n) + '"' + (n === state.fn ? " selected" : "") + ">" + esc(n) + " (" +
          counts[n] + ")</option>";
      }).join("");
  }
  function bindSrcTable() {
    var table = $("src-table");
    table.addEventListener("click", function (e) {
      var button = e.target.closest("button[data-sort]");
      if (button) {
        var k = button.dataset.sort;
        if (state.sort === k) state.descending = !state.descending;
        else { state.sort = k; state.descending = k !== "function" && k !== "site" && k !== "id"; }
        renderSrcTable();
        var again = table.querySelector('button[data-sort="' + k + '"]');
        if (again) again.focus();
        return;
      }
      var tr = e.target.closest("tbody tr");
      if (tr) selectSrc(+tr.dataset.src, false);
    });
    table.addEventListener("keydown", function (e) {
      var tr = e.target.closest("tbody tr");
      if (!tr) return;
      var to = null;
      if (e.key === "ArrowDown") to = tr.nextElementSibling;
      else if (e.key === "ArrowUp") to = tr.previousElementSibling;
      else if (e.key === "Home") to = tr.parentElement.firstElementChild;
      else if (e.key === "End") to = tr.parentElement.lastElementChild;
      else if (e.key === "Enter" || e.key === " ") { selectSrc(+tr.dataset.src, true); }
      else return;
      e.preventDefault();
      if (to) { tr.tabIndex = -1; to.tabIndex = 0; to.focus(); }
    });
    $("function-filter").addEventListener("change", function (e) {
      state.fn = e.target.value;
      renderSrcTable();
    });
  }

  // --- an SRC point: its numbers, its stack with the source around each frame
  function excerptHtml(p, frame) {
    if (!isNum(frame.line))
      return '<p class="na">No source position: the frame was not resolved (' + esc(frame.text) + ").</p>";
    var src = p.sources[frame.path];
    if (!src) return '<p class="missing">Source missing: the page was written without it.</p>';
    if (src.missing) return '<p class="missing">Source missing: ' + esc(frame.path) + " " + esc(src.missing) + "</p>";
    if (frame.line > src.line_count)
      return '<p class="missing">Source line ' + esc(frame.line) + " is past the end of " + esc(src.file) + " (" +
        esc(src.line_count) + " lines): the file changed since the run?</p>";
    var n = data.context_lines, rows = [];
    for (var l = Math.max(1, frame.line - n); l <= Math.min(src.line_count, frame.line + n); l++) {
      var text = src.lines[String(l)];
      if (text === undefined) continue;
      var call = l === frame.line;
      rows.push("<tr" + (call ? ' class="call" data-line="' + l + '"' : "") + '><td class="ln">' + l +
        '</td><td class="src-text">' + (call ? "<mark>" + esc(text) + "</mark>" : esc(text)) + "</td></tr>");
    }
    return '<table class="excerpt" aria-label="' + esc(src.file) + " lines around " + frame.line + '"><tbody>' +
      rows.join("") + "</tbody></table>";
  }
  function srcStatsHtml(p, s, label) {
    if (!s) return "<p>" + esc(label) + ": no such SRC point in this interval.</p>";
    var rows = [["time", "Time"], ["predicted_time", "Predicted time"], ["real_sync", "Real sync"],
      ["potential_sync", "Potential sync"], ["time_variation", "Time variation"]].map(function (r) {
      var x = s[r[0]];
      function rank(k) { return isNum(x[k]) ? " (rank " + esc(x[k]) + ")" : ""; }
      return "<tr><td>" + esc(r[1]) + "</td>" + (x ? "<td class=num>" + sec(x.sum) + "</td><td class=num>" +
        sec(x.min) + rank("min_rank") + "</td><td class=num>" + sec(x.max) + rank("max_rank") +
        "</td><td class=num>" + sec(x.mean) + "</td>" : "<td colspan=4>" + NA + "</td>") + "</tr>";
    });
    var by = s.by_process, per = "";
    if (by.ranks.length && by.ranks.length <= 64) {
      per = '<table class="per-process"><thead><tr><th>rank</th><th class=num>time</th><th class=num>calls</th>' +
        "<th class=num>bytes sent</th><th class=num>bytes received</th></tr></thead><tbody>" +
        by.ranks.map(function (r, i) {
          return "<tr><td>" + esc(r) + "</td><td class=num>" + sec(by.time[i]) + "</td><td class=num>" +
            count(by.calls[i], "calls") + "</td><td class=num>" + bytes(by.bytes_sent[i]) + "</td><td class=num>" +
            bytes(by.bytes_recv[i]) + "</td></tr>";
        }).join("") + "</tbody></table>";
    } else if (by.ranks.length) {
      per = histogramHtml(by.time, "Time per process (" + by.ranks.length + " processes)");
    }
    return "<h4>" + esc(label) + ": SRC " + esc(s.id) + "</h4><p>" + count(s.calls, "calls") + ", " +
      bytes(s.bytes_sent) + " sent, " + bytes(s.bytes_recv) + " received, " +
      (s.bytes_read || s.bytes_written ? bytes(s.bytes_read) + " read, " + bytes(s.bytes_written) + " written at " +
        count(isNum(s.bandwidth) ? Math.round(s.bandwidth) : null, "B/s") + ", " : "") + "overlap " + sec(s.overlap) +
      '</p><table class="src-stats"><thead><tr><th></th><th class=num>sum over processes</th><th class=num>min</th>' +
      "<th class=num>max</th><th class=num>mean</th></tr></thead><tbody>" + rows.join("") + "</tbody></table>" + per +
      mpiprofThreadsHtml(s, esc, sec); // view_threads.js
  }
  // A call stack, innermost frame first, each frame with the source around
  // its line (headings of `level`); in the first protocol, a frame's line
  // links to every SRC point at it.
  function stackHtml(p, stack, level) {
    var h = "h" + level;
    return stack.map(function (f, depth) {
      var where = isNum(f.line) && p === A ? '<button type="button" class="link" data-path="' + esc(f.path) +
        '" data-line="' + f.line + '" data-file="' + esc(f.file) + '">every SRC point at ' + esc(f.file + ":" + f.line) +
        "</button>" : "";
      // where a frame not at a line of its own code comes from, as the text protocol marks it
      var source = f.source && f.source !== "line" ? " [" + esc(f.source) + "]" : "";
      return '<div class="frame" data-depth="' + depth + '"><' + h + ">#" + depth + " <code>" + esc(f.text) +
        "</code>" + source + " " + where + "</" + h + ">" + excerptHtml(p, f) + "</div>";
    }).join("") || "<p>No call stack was recorded.</p>";
  }
  function selectSrc(id, focus) {
    state.src = id;
    var iv = A.doc.intervals[state.interval];
    var s = srcOf(iv).filter(function (x) { return x.id === id; })[0];
    if (!s) return;
    $("src-table").querySelectorAll("tbody tr").forEach(function (tr) {
      tr.setAttribute("aria-selected", String(+tr.dataset.src === id));
    });
    var b = B ? matchedRow(iv, s) : null;
    var stack = A.stack(s);
    var html = "<h2>SRC " + esc(s.id) + " <code>" + esc(s.function) + "</code> in interval " + esc(iv.id) +
      " \u201c" + esc(iv.name) + "\u201d</h2>";
    html += B ? '<div class="side-by-side"><div>' + srcStatsHtml(A, s, A.label) + "</div><div>" +
      srcStatsHtml(B, b, B.label) + "</div></div>" :
      srcStatsHtml(A, s, state.inclusive ? "This interval with its sub-intervals" : "This interval");
    html += findings.atSrc(id);
    html += "<h3>Call stack (innermost first) and source</h3>" + stackHtml(A, stack, 4);
    var panel = $("src-detail");
    panel.innerHTML = html;
    traceLinks.show(panel, s, iv);
    panel.hidden = false;
    if (focus) panel.focus();
    else panel.scrollIntoView({ block: "nearest" });
  }

  // --- a source line: every SRC point with a frame at it, in every interval
  var lineIndex = null;
  function showLine(path, line, file) {
    if (!lineIndex) {
      lineIndex = {};
      A.doc.intervals.forEach(function (iv) {
        iv.src.forEach(function (s) {
          A.stack(s).forEach(function (f, depth) {
            if (!isNum(f.line)) return;
            var key = f.path + ":" + f.line;
            (lineIndex[key] = lineIndex[key] || []).push({ iv: iv, s: s, depth: depth });
          });
        });
      });
    }
    var hits = lineIndex[path + ":" + line] || [];
    var html = "<h2>Every SRC point at " + esc(file + ":" + line) + "</h2><p>" + hits.length +
      " SRC point" + (hits.length === 1 ? "" : "s") + " in all intervals: the call itself (frame #0) or a call " +
      "below it (frame #1 and deeper).</p>" +
      '<table class="line-hits"><thead><tr><th>Interval</th><th class=num>SRC</th><th>MPI function</th><th class=num>frame</th>' +
      "<th class=num>time</th><th class=num>calls</th></tr></thead><tbody>" + hits.map(function (h) {
        return "<tr><td>" + esc(h.iv.id + " " + h.iv.name) + '</td><td class=num><button type="button" class="link" ' +
          'data-goto-interval="' + h.iv.index + '" data-goto-src="' + h.s.id + '">SRC ' + esc(h.s.id) + "</button></td><td><code>" +
          esc(h.s.function) + "</code></td><td class=num>#" + h.depth + "</td><td class=num>" + sec(h.s.time.sum) +
          "</td><td class=num>" + count(h.s.calls, "calls") + "</td></tr>";
      }).join("") + "</tbody></table>";
    var panel = $("line-detail");
    panel.innerHTML = html;
    panel.hidden = false;
    panel.focus();
  }
  function bindDetails() {
    document.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-line]");
      if (b) { showLine(b.dataset.path, +b.dataset.line, b.dataset.file); return; }
      var g = e.target.closest("button[data-goto-src]");
      if (g) {
        selectInterval(+g.dataset.gotoInterval, false);
        selectSrc(+g.dataset.gotoSrc, true);
      }
    });
  }

  // --- two protocols: speedup, efficiency, which part of Lost time grew
  function comparisonHtml(iv) {
    var o = matchB[iv.index];
    if (!o) return "<p>Interval \u201c" + esc(iv.name) + "\u201d is not in " + esc(B.label) +
      " (intervals are matched by name and place in the tree, as mpiprof-compare matches them).</p>";
    var a = iv.real.main, b = o.real.main, out = [];
    var pa = a.processors, pb = b.processors;
    if (isNum(a.execution_time) && isNum(b.execution_time) && b.execution_time > 0) {
      var speedup = a.execution_time / b.execution_time;
      out.push('<li data-key="speedup" data-value="' + speedup + '">Speedup of ' + esc(B.label) + " over " +
        esc(A.label) + ": <strong>" + speedup.toFixed(4) + "</strong> (execution time " + sec(a.execution_time) +
        " \u2192 " + sec(b.execution_time) + ")</li>");
      if (isNum(pa) && isNum(pb) && pa !== pb)
        out.push('<li data-key="scaling_efficiency">Scaling efficiency (speedup \u00d7 ' + esc(pa) + " / " + esc(pb) +
          " processes): <strong>" + (speedup * pa / pb).toFixed(4) + "</strong></li>");
    }
    out.push('<li data-key="processors">Processors: ' + count(pa, "processes") + " \u2192 " + count(pb, "processes") + "</li>");
    out.push('<li data-key="keff">Parallelization efficiency K<sub>eff</sub>: ' + ratio(a.parallelization_efficiency) +
      " \u2192 " + ratio(b.parallelization_efficiency) + "</li>");
    var grew = null;
    var parts = LOST_PARTS.map(function (k) {
      var d = isNum(a[k]) && isNum(b[k]) ? b[k] - a[k] : null;
      if (isNum(d) && d > 0 && (!grew || d > grew.d)) grew = { k: k, d: d };
      return { k: k, d: d };
    });
    out.push('<li data-key="grew" data-grew="' + (grew ? grew.k : "") + '">' + (grew ? "Lost time: <strong>" +
      esc(LABEL[grew.k]) + "</strong> grew most (" + signed(grew.d, "s") + ", summed over processes)" :
      "Lost time: no part of it grew") + "</li>");
    var dp = isNum(a.productive_time) && isNum(b.productive_time) ? b.productive_time - a.productive_time : null;
    var table = '<table class="lost-parts"><thead><tr><th>Productive time and the parts of Lost time</th><th class=num>' +
      esc(A.label) + "</th><th class=num>" + esc(B.label) + "</th><th class=num>difference</th></tr></thead><tbody>" +
      '<tr data-key="productive_time"><td>' + esc(LABEL.productive_time) + "</td><td class=num>" + sec(a.productive_time) +
      "</td><td class=num>" + sec(b.productive_time) + "</td><td class=num>" + signed(dp, "s") + "</td></tr>" +
      parts.map(function (p) {
        var cls = grew && p.k === grew.k ? ' class="grew"' : isNum(p.d) && p.d < 0 ? ' class="shrank"' : "";
        return "<tr" + cls + ' data-key="' + p.k + '"><td>' + esc(LABEL[p.k]) + "</td><td class=num>" + sec(a[p.k]) +
          "</td><td class=num>" + sec(b[p.k]) + "</td><td class=num>" + signed(p.d, "s") + "</td></tr>";
      }).join("") + "</tbody></table>";
    return "<p>Interval " + esc(iv.id) + " \u201c" + esc(iv.name) + "\u201d: " + esc(A.label) + " \u2192 " +
      esc(B.label) + "</p><ul>" + out.join("") + "</ul>" + table;
  }

  // --- selecting an interval
  function selectInterval(index, focusPanel) {
    state.interval = index;
    state.src = null;
    var iv = A.doc.intervals[index];
    $("tree").querySelectorAll("[role=treeitem]").forEach(function (li) {
      var on = +li.dataset.interval === index;
      li.setAttribute("aria-selected", String(on));
      li.tabIndex = on ? 0 : -1;
    });
    var item = $("tree").querySelector('[data-interval="' + index + '"]');
    for (var up = item.parentElement.closest("[role=treeitem]"); up; up = up.parentElement.closest("[role=treeitem]"))
      up.setAttribute("aria-expanded", "true"); // the selected interval is shown
    $("interval-title").textContent = "Interval " + iv.id + " \u201c" + iv.name + "\u201d";
    $("interval-where").textContent = iv.file + ":" + iv.line + ", level " + iv.level + ", " + iv.executions +
      " execution" + (iv.executions === 1 ? "" : "s") + (iv.parent === null ? "" : ", inside interval " + iv.parent);
    $("characteristics").innerHTML = characteristicsHtml(iv);
    $("io-figures").innerHTML = mpiprofIoHtml(iv); // view_io.js
    $("bars").innerHTML = barsHtml(iv);
    $("processes").innerHTML = (B ? '<p class="which-run" data-run="' + esc(A.label) + '">The processes of ' +
      esc(A.label) + " (" + esc(A.doc.parameters.processes) + " processes), the first protocol; those of " +
      esc(B.label) + " are on its own page.</p>" : "") + processesHtml(A, iv);
    drawStrip(iv);
    if (B) $("comparison-body").innerHTML = comparisonHtml(iv);
    functionFilter(iv);
    renderSrcTable();
    $("src-detail").hidden = true;
    if (focusPanel) $("interval-panel").focus();
  }

  // --- the digest (view_digest.js) and the SRC table's inclusive toggle
  function setInclusive(on) {
    state.inclusive = on;
    digest.setMode(on);
  }
  function showDigest() {
    digest = mpiprofDigest({ esc: esc, gotoSrc: function (id) {
      setInclusive(true);
      selectInterval(0, false);
      selectSrc(id, true);
    }, onMode: function (inclusive) {
      setInclusive(inclusive);
      state.src = null;
      functionFilter(A.doc.intervals[state.interval]);
      renderSrcTable();
      $("src-detail").hidden = true;
    } });
    digest.show(A, B);
  }

  function fail(message) {
    var s = $("status");
    s.textContent = "This page cannot be shown: " + message;
    s.className = "error";
    document.body.dataset.error = message;
  }

  function start() {
    try {
      data = JSON.parse($("mpiprof-data").textContent);
    } catch (e) {
      fail("its protocol data is not readable (" + e.message + ")");
      return;
    }
    if (window.performance && performance.mark) performance.mark("mpiprof-parsed");
    if (!data || data.view !== 1 || !data.protocols || !data.protocols.length) {
      fail("its protocol data is of another version of mpiprof-view");
      return;
    }
    A = data.protocols[0];
    // several: the first and the last side by side (a scaling study's smallest and largest P), or the chosen one
    B = mpiprofRuns.chosen(data); // view_runs.js
    prepare(A);
    if (B) { prepare(B); matchProtocols(); }
    var q = A.doc.parameters;
    // the title names the program, each run's P and date (its run facts)
    var runs = data.protocols.map(function (p) {
      return "P = " + p.doc.parameters.processes + " (" + p.doc.parameters.started + ")";
    }).join(", ");
    document.title = q.program + ": " + runs + " \u2014 mpiprof";
    $("title").textContent = "mpiprof: " + q.program + ": " + runs;
    $("subtitle").textContent = q.program + " \u2014 " + q.processes + " processes on " + q.nodes +
      (q.nodes === 1 ? " node" : " nodes") + ", " + q.started + (B ? "; " + B.doc.parameters.program + " \u2014 " +
      B.doc.parameters.processes + " processes, " + B.doc.parameters.started : "") + ". Written by " + data.generator + ".";
    $("parameters-body").innerHTML = B ? '<div class="side-by-side"><div><h3>' + esc(A.label) + "</h3>" +
      parametersHtml(A) + "</div><div><h3>" + esc(B.label) + "</h3>" + parametersHtml(B) + "</div></div>"
      : parametersHtml(A);
    findings = mpiprofFindings({ protocols: B ? [A, B] : [A], esc: esc, count: count, stackHtml: stackHtml });
    showDigest();
    traceLinks = mpiprofTrace({ A: A, esc: esc, count: count, sec: sec });
    $("comparison").hidden = !B;
    mpiprofRuns.title(data, A, B, esc);
    var scaling = data.scaling ? mpiprofScaling({ data: data, esc: esc, sec: sec, ratio: ratio, NA: NA,
      label: function (k) { return LABEL[k]; } }) : null;
    $("scaling").hidden = !(scaling && scaling.shown);
    if (scaling && scaling.shown) $("scaling-body").innerHTML = scaling.html();
    buildTree();
    bindSrcTable();
    bindDetails();
    selectInterval(0, false);
    $("status").hidden = true;
    $("main").hidden = false;
    window.addEventListener("beforeprint", function () {
      document.querySelectorAll("details").forEach(function (d) { d.open = true; });
    });
    document.body.dataset.ready = "1";
    if (window.performance && performance.mark) performance.mark("mpiprof-drawn"); // bench/view_bench.py
  }

  window.addEventListener("error", function (e) { fail(e.message); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
