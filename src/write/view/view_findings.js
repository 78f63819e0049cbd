/* mpiprof-view: the Correctness panel, drawn first (before Parameters):
 * the checks that ran, their counts and each protocol's findings in the
 * protocol's order (errors first).  A finding is selected like an SRC
 * point (a click, or the arrow keys and Enter in its table): its call
 * stack and the other side's, with the source around every frame, and a
 * link to its SRC point.  A protocol written before the section existed
 * says "not recorded".  view.js calls mpiprofFindings(view) once, with what
 * it shares: the protocols, esc, count and stackHtml. */
"use strict";
var mpiprofFindings = function (view) {
  var protocols = view.protocols, A = protocols[0], esc = view.esc;

  function $(id) { return document.getElementById(id); }
  function list(p) { return p.doc.correctness ? p.doc.correctness.findings : []; }
  function sideKey(fn, stack) { return fn + "|" + stack.map(function (f) { return f.text; }).join(" <- "); }
  // How two protocols' findings are paired (as mpiprof-compare pairs them):
  // kind, function, stack, and the other side's function and stack.
  function findingKey(f) {
    return f.kind + "\u001f" + sideKey(f["function"], f.stack) + "\u001f" +
      (f.other ? sideKey(f.other["function"], f.other.stack) : "");
  }
  function place(stack) { return stack.length ? stack[0].text : "no call stack"; }
  function plural(n, what) { return view.count(n, "") + " " + what + (n === 1 ? "" : "s"); }
  function ranksText(f) {
    if (f.first_rank === f.last_rank) return "rank " + f.first_rank;
    if (f.last_rank - f.first_rank + 1 === f.processes) return "ranks " + f.first_rank + "-" + f.last_rank;
    return f.processes + " processes, ranks " + f.first_rank + " to " + f.last_rank;
  }
  function stateOf(p) {
    var k = p.doc.correctness;
    if (!k) return "not-recorded";
    if (k.level === "off" || k.errors === null) return "off";
    return k.findings.length ? "findings" : k.dropped ? "dropped" : "clean";
  }
  // The first interval (in the protocol's order) with an SRC point that
  // `match` accepts: {iv, s}, or null.
  function firstSrc(p, match) {
    var ivs = p.doc.intervals;
    for (var i = 0; i < ivs.length; i++)
      for (var k = 0; k < ivs[i].src.length; k++)
        if (match(ivs[i].src[k])) return { iv: ivs[i], s: ivs[i].src[k] };
    return null;
  }

  // --- the lists
  function otherHtml(f) {
    var rank = f.peer === null ? "" : "rank " + esc(f.peer);
    if (!f.other) return rank;
    return "<code>" + esc(f.other["function"]) + "</code> at <code>" + esc(place(f.other.stack)) + "</code>" +
      (rank ? " on " + rank : "");
  }
  function tableHtml(p, pi) {
    // marked "not in" the other protocol only where its checks ran
    var other = protocols[1 - pi] || null, keys = {};
    if (other && (stateOf(other) === "off" || stateOf(other) === "not-recorded")) other = null;
    if (other) list(other).forEach(function (f) { keys[findingKey(f)] = true; });
    var head = ["Severity", "Kind", "MPI function", "Call site", "Ranks", "Count", "First occurrence", "Other side"];
    var rows = list(p).map(function (f, i) {
      var only = other && !keys[findingKey(f)] ? ' <span class="only-here">not in ' + esc(other.label) + "</span>" : "";
      var frames = f.stack.map(function (x) { return x.text; }).join(" \u2190 ");
      return '<tr class="sev-' + esc(f.severity) + '" data-protocol="' + pi + '" data-finding="' + i + '" tabindex="' +
        (i === 0 ? 0 : -1) + '" aria-selected="false"><td class="severity">' + esc(f.severity) + "</td><td><code>" +
        esc(f.kind) + "</code>" + only + "</td><td><code>" + esc(f["function"]) + '</code></td><td class="site" title="' +
        esc(frames) + '"><code>' + esc(place(f.stack)) + "</code></td><td>" + esc(ranksText(f)) +
        '</td><td class="num">' + view.count(f.count, "") + '</td><td class="detail">' + esc(f.detail) + "</td><td>" +
        otherHtml(f) + "</td></tr>";
    });
    return '<p class="hint">A row (or Enter on it) shows its call stack, the other side\'s, and the source.</p>' +
      '<div class="table-wrap"><table class="findings" id="findings-' + pi + '" aria-label="Correctness findings of ' +
      esc(p.label) + '"><thead><tr>' + head.map(function (h, k) {
        return "<th" + (k === 5 ? ' class="num"' : "") + ">" + esc(h) + "</th>";
      }).join("") + "</tr></thead><tbody>" + rows.join("") + "</tbody></table></div>";
  }
  function summaryHtml(p, pi) {
    var k = p.doc.correctness, state = stateOf(p);
    if (state === "not-recorded")
      return '<p class="correctness-state" data-state="not-recorded">Not recorded: this protocol was written by an ' +
        "mpiprof without correctness checks.</p>";
    var out = '<p class="checks">Checks: ' + esc(k.checks) + " (MPIPROF_CHECK=" + esc(k.level) + ")</p>";
    if (state === "off")
      return out + '<p class="correctness-state" data-state="off">No correctness check ran: MPIPROF_CHECK=basic ' +
        "or full runs them.</p>";
    out += '<p class="correctness-counts' + (k.errors ? " has-errors" : "") + '" data-errors="' + k.errors +
      '" data-warnings="' + k.warnings + '">' + plural(k.errors, "error") + ", " + plural(k.warnings, "warning") +
      " (occurrences) in " + plural(k.findings.length, "finding") +
      (k.dropped ? "; " + view.count(k.dropped, "") + " more not kept (MPIPROF_MAX_FINDINGS)" : "") + "</p>";
    if (state === "clean")
      return out + '<p class="correctness-state" data-state="clean">No findings: the checks that ran found nothing.</p>';
    return out + (k.findings.length ? tableHtml(p, pi) : "");
  }

  // --- a finding: its call and the other side's, each with its stack and source
  function srcLinkHtml(p, side) {
    if (side.src === null)
      return '<p class="no-src">No SRC point: no SRC point of the protocol has this call stack.</p>';
    var hit = p === A ? firstSrc(A, function (s) { return s.id === side.src; }) :
      firstSrc(A, function (s) { return A.srcKey(s) === sideKey(side["function"], side.stack); });
    if (!hit)
      return '<p class="no-src">SRC ' + esc(side.src) + (p === A ? " is in no interval of the protocol." :
        " of " + esc(p.label) + ": the same call site is no SRC point of " + esc(A.label) + ".") + "</p>";
    return '<p><button type="button" class="link src-link" data-goto-interval="' + hit.iv.index + '" data-goto-src="' +
      hit.s.id + '">SRC ' + esc(hit.s.id) + (p === A ? "" : " of " + esc(A.label) + " (the same call site)") +
      "</button> in interval " + esc(hit.iv.id) + " \u201c" + esc(hit.iv.name) + "\u201d</p>";
  }
  function select(pi, i, focus) {
    var p = protocols[pi], f = list(p)[i];
    if (!f) return;
    document.querySelectorAll("table.findings tbody tr").forEach(function (tr) {
      tr.setAttribute("aria-selected", String(+tr.dataset.protocol === pi && +tr.dataset.finding === i));
    });
    var html = "<h3>" + (protocols.length > 1 ? esc(p.label) + ": " : "") + '<span class="severity">' +
      esc(f.severity) + "</span> <code>" + esc(f.kind) + "</code> at <code>" + esc(f["function"]) + "</code></h3><p>" +
      esc(ranksText(f)) + ", " + plural(f.count, "time") + (f.peer === null ? "" : "; other process: rank " +
      esc(f.peer)) + "</p>" + (f.detail ? '<p class="detail">First occurrence: ' + esc(f.detail) + "</p>" : "");
    html += '<div class="finding-side" data-side="call"><h4>The call: <code>' + esc(f["function"]) + "</code> at <code>" +
      esc(place(f.stack)) + "</code></h4>" + srcLinkHtml(p, f) + view.stackHtml(p, f.stack, 5) + "</div>";
    if (f.other)
      html += '<div class="finding-side" data-side="other"><h4>The other side: <code>' + esc(f.other["function"]) +
        "</code> at <code>" + esc(place(f.other.stack)) + "</code>" + (f.peer === null ? "" : " on rank " +
        esc(f.peer)) + "</h4>" + srcLinkHtml(p, f.other) + view.stackHtml(p, f.other.stack, 5) + "</div>";
    var panel = $("finding-detail");
    panel.innerHTML = html;
    panel.dataset.protocol = pi;
    panel.dataset.finding = i;
    panel.hidden = false;
    if (focus) panel.focus();
    else panel.scrollIntoView({ block: "nearest" });
  }
  function bind() {
    var body = $("correctness-body");
    body.addEventListener("click", function (e) {
      var tr = e.target.closest("table.findings tbody tr");
      if (tr) select(+tr.dataset.protocol, +tr.dataset.finding, false);
    });
    body.addEventListener("keydown", function (e) {
      var tr = e.target.closest("table.findings tbody tr");
      if (!tr) return;
      var to = null;
      if (e.key === "ArrowDown") to = tr.nextElementSibling;
      else if (e.key === "ArrowUp") to = tr.previousElementSibling;
      else if (e.key === "Home") to = tr.parentElement.firstElementChild;
      else if (e.key === "End") to = tr.parentElement.lastElementChild;
      else if (e.key === "Enter" || e.key === " ") select(+tr.dataset.protocol, +tr.dataset.finding, true);
      else return;
      e.preventDefault();
      if (to) { tr.tabIndex = -1; to.tabIndex = 0; to.focus(); }
    });
    // from an SRC point's detail back to its findings
    document.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-goto-finding]");
      if (b) select(0, +b.dataset.gotoFinding, true);
    });
  }

  // The findings of the first protocol at SRC point `id`, for its detail.
  function atSrc(id) {
    var hits = [];
    list(A).forEach(function (f, i) {
      if (f.src === id || (f.other && f.other.src === id))
        hits.push('<li><button type="button" class="link" data-goto-finding="' + i + '">' + esc(f.severity) + " " +
          esc(f.kind) + "</button>" + (f.src === id ? "" : " (the other side)") + "</li>");
    });
    return hits.length ? '<p class="src-findings">Correctness findings at this SRC point:</p><ul>' + hits.join("") +
      "</ul>" : "";
  }

  var body = $("correctness-body");
  body.innerHTML = protocols.length > 1 ? '<div class="side-by-side">' + protocols.map(function (p, pi) {
    return '<div class="correctness-of" data-protocol="' + pi + '"><h3>' + esc(p.label) + "</h3>" +
      summaryHtml(p, pi) + "</div>";
  }).join("") + "</div>" : '<div class="correctness-of" data-protocol="0">' + summaryHtml(A, 0) + "</div>";
  bind();
  return { atSrc: atSrc, select: select };
};
