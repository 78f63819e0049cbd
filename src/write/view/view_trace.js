/* mpiprof-view: the trace links.  With a trace of the run (mpiprof-view
 * --trace, or the trace beside the protocol), the selected SRC point's
 * panel ends with its calls as the trace recorded them: per process a
 * timeline (each call from its entry to its exit, the wait part marked:
 * Real sync and Potential sync, computed from the trace's events by the
 * analyzer's replay) and the first calls in a table; the page carries at
 * most the first N calls of each process (mpiprof-view --events N) and a
 * summary of all of them.  Without a trace nothing is drawn.  view.js
 * calls mpiprofTrace(view) once, then show(panel, s, iv) on each selection
 * (the SRC point s of interval iv: its calls in that interval). */
"use strict";
var mpiprofTrace = function (view) {
  var trace = view.A.trace || null, esc = view.esc, sec = view.sec;
  var shown = trace ? trace.events_max : 0; // the page control's value
  var SVG_W = 1000, TOP = 6, LEFT = 70, RIGHT = 10, AXIS = 22;
  // Lanes of 22 units up to 32 processes, then thinner: at most some 700
  // units of lanes (3 at least), a rank's label where there is room.
  function laneOf(n) { return n <= 32 ? 22 : Math.max(3, Math.floor(704 / n)); }

  function plural(n, what) {
    return view.count(n, "") + " " + what + (n === 1 ? "" : /s$/.test(what) ? "es" : "s");
  }
  function fixed(x) { return (+x).toFixed(6); }

  // The wait part of a call: what the wait states count inside it, from
  // its entry (Time variation lies after its exit).
  function waitOf(e) { return Math.min(e[2] + e[3], e[1] - e[0]); }

  function timelineHtml(by) {
    var lo = Infinity, hi = -Infinity;
    by.forEach(function (p) {
      p.events.slice(0, shown).forEach(function (e) { lo = Math.min(lo, e[0]); hi = Math.max(hi, e[1]); });
    });
    if (!(hi > lo)) hi = lo + 1e-6;
    var LANE = laneOf(by.length), pad = LANE >= 12 ? 3 : 0, every = Math.ceil(14 / LANE);
    var width = SVG_W - LEFT - RIGHT, h = TOP + by.length * LANE + AXIS;
    function x(t) { return LEFT + (t - lo) / (hi - lo) * width; }
    var lanes = by.map(function (p, i) {
      var y = TOP + i * LANE, evs = p.events.slice(0, shown);
      var rects = evs.map(function (e, k) {
        var x0 = x(e[0]), w = Math.max(x(e[1]) - x0, 1), wait = waitOf(e);
        var title = "<title>rank " + p.rank + ", call " + (k + 1) + ": " + fixed(e[0]) + " to " + fixed(e[1]) +
          " s, wait " + fixed(wait) + " s</title>";
        return '<rect class="call" data-index="' + k + '" x="' + x0.toFixed(2) + '" y="' + (y + pad) + '" width="' +
          w.toFixed(2) + '" height="' + (LANE - 2 * pad) + '">' + title + "</rect>" + (wait > 0 ? '<rect class="wait" ' +
          'data-index="' + k + '" data-wait="' + wait + '" x="' + x0.toFixed(2) + '" y="' + (y + pad) + '" width="' +
          Math.max(x(e[0] + wait) - x0, 1).toFixed(2) + '" height="' + (LANE - 2 * pad) + '">' + title + "</rect>" : "");
      }).join("");
      return '<g class="lane" data-rank="' + p.rank + '" data-calls="' + p.calls + '" data-shown="' + evs.length +
        '">' + (i % every ? "" : '<text x="4" y="' + (y + LANE / 2 + 4) + '">rank ' + esc(p.rank) + "</text>") +
        '<line x1="' + LEFT + '" x2="' +
        (SVG_W - RIGHT) + '" y1="' + (y + LANE / 2) + '" y2="' + (y + LANE / 2) + '"/>' + rects + "</g>";
    }).join("");
    var ay = TOP + by.length * LANE + 14;
    var axis = '<text class="axis" x="' + LEFT + '" y="' + ay + '">' + fixed(lo) + ' s</text><text class="axis" x="' +
      (SVG_W - RIGHT) + '" y="' + ay + '" text-anchor="end">' + fixed(hi) + " s</text>";
    return '<svg class="trace-timeline" viewBox="0 0 ' + SVG_W + " " + h + '" role="img" aria-label="Timeline of ' +
      'the calls per process">' + lanes + axis + "</svg>";
  }

  function tableHtml(by) {
    var rows = [];
    by.forEach(function (p) {
      var evs = p.events.slice(0, shown);
      evs.forEach(function (e, k) {
        rows.push('<tr data-rank="' + p.rank + '" data-index="' + k + '"><td class=num>' + esc(p.rank) +
          "</td><td class=num>" + (k + 1) + "</td><td class=num>" + fixed(e[0]) + "</td><td class=num>" +
          fixed(e[1]) + "</td><td class=num>" + sec(e[1] - e[0]) + "</td><td class=num>" + sec(e[2]) +
          "</td><td class=num>" + sec(e[3]) + "</td><td class=num>" + sec(e[4]) + "</td></tr>");
      });
      if (p.calls > evs.length)
        rows.push('<tr class="more" data-rank="' + p.rank + '" data-more="' + (p.calls - evs.length) +
          '"><td class=num>' + esc(p.rank) + '</td><td colspan="7">' + plural(p.calls - evs.length, "more call") +
          " not shown" + (evs.length < p.events.length ? "" : " (the page carries the first " +
          view.count(trace.events_max, "") + ": mpiprof-view --events)") + "</td></tr>");
    });
    return '<table class="trace-events"><thead><tr><th class=num>rank</th><th class=num>#</th>' +
      "<th class=num>entry (s)</th><th class=num>exit (s)</th><th class=num>time</th><th class=num>Real sync</th>" +
      "<th class=num>Potential sync</th><th class=num>Time variation</th></tr></thead><tbody>" + rows.join("") +
      "</tbody></table>";
  }

  function summaryHtml(by) {
    return '<table class="trace-summary"><thead><tr><th class=num>rank</th><th class=num>calls</th>' +
      "<th class=num>time</th><th class=num>wait part</th><th class=num>first entry (s)</th>" +
      "<th class=num>last exit (s)</th></tr></thead><tbody>" + by.map(function (p) {
        return '<tr data-rank="' + p.rank + '" data-calls="' + p.calls + '"><td class=num>' + esc(p.rank) +
          "</td><td class=num>" + view.count(p.calls, "") + "</td><td class=num>" + sec(p.time) +
          "</td><td class=num>" + sec(p.wait) + "</td><td class=num>" + fixed(p.first) + "</td><td class=num>" +
          fixed(p.last) + "</td></tr>";
      }).join("") + "</tbody></table>";
  }

  function callsOf(s, iv) { return trace.src[iv.id + ":" + s.id] || []; }

  function bodyHtml(s, iv) {
    var by = callsOf(s, iv);
    var head = "<p>From the trace <code>" + esc(trace.archive) + "</code>" + (trace.complete ? "" :
      " (incomplete: the run ended early)") + ": the calls of SRC " + esc(s.id) + " in interval " + esc(iv.id) +
      " as the trace recorded them, times in seconds from the trace's first call. The wait part (in the colour of Real sync) is the Real sync " +
      "and Potential sync the trace's events give each call, as mpiprof-analyze computes them.</p>";
    if (!by.length) return head + '<p class="trace-none">The trace has no call of SRC ' + esc(s.id) +
      " in this interval.</p>";
    var total = by.reduce(function (n, p) { return n + p.calls; }, 0);
    var without = trace.ranks.length - by.length;
    return head + "<p>" + plural(total, "call") + " on " + plural(by.length, "process") + (without ?
      " (none on the " + plural(without, "other process") + ")" : "") + ".</p>" + summaryHtml(by) +
      '<div class="controls"><label for="trace-shown">Calls shown per process</label> <input id="trace-shown" ' +
      'type="number" min="1" max="' + trace.events_max + '" value="' + shown + '"> <span class="hint">at most ' +
      view.count(trace.events_max, "") + ", the first calls the page carries</span></div>" +
      '<div class="trace-view">' + timelineHtml(by) + tableHtml(by) + "</div>";
  }

  function show(panel, s, iv) {
    if (!trace) return;
    var section = document.createElement("section");
    section.id = "trace-links";
    section.innerHTML = "<h3>Calls in the trace</h3>" + bodyHtml(s, iv);
    panel.appendChild(section);
    var input = section.querySelector("#trace-shown");
    if (input) input.addEventListener("change", function () {
      var n = Math.round(+input.value);
      if (!(n >= 1)) n = 1;
      shown = Math.min(n, trace.events_max);
      input.value = shown;
      var by = callsOf(s, iv);
      section.querySelector(".trace-view").innerHTML = timelineHtml(by) + tableHtml(by);
    });
  }

  return { show: show };
};
