/* mpiprof-view: the digest at the top of the page, read from the
 * protocol's "digest" (the text protocol's and the end-of-run summary's,
 * computed once by src/analyze/digest.c): the run, K_eff, Lost time by its
 * parts, Productive time with I/O named where it is a large share, the
 * correctness counts, the top SRC points of the whole run and the Warnings
 * count; and the SRC table's toggle between the calls made in an interval
 * and those of its sub-intervals too.  view.js calls mpiprofDigest(view)
 * once, with esc, gotoSrc(id) (interval 0, inclusive, that SRC point) and
 * onMode(inclusive) (the toggle switched), then show(A, B). */
"use strict";
var mpiprofDigest = function (view) {
  var esc = view.esc;
  var COLORS = { insufficient_parallelism: "--c-insufficient", sendrecv: "--c-sendrecv",
    collective: "--c-collective", system: "--c-system", idle_time: "--c-idle" };
  var NA = '<span class="na" title="not computed: the reason is in Warnings">n/a</span>';
  function isNum(x) { return typeof x === "number" && isFinite(x); }
  // As the text protocol writes them, so that both read the same.
  function sec(x) { return isNum(x) ? x.toFixed(6) + "\u00a0s" : NA; }
  function pct(x) { return isNum(x) ? (100 * x).toFixed(1) + "\u00a0%" : NA; }
  function attr(key, value) {
    return ' data-key="' + key + '" data-value="' + (isNum(value) ? value : "") + '"';
  }

  function lostHtml(d) {
    var parts = d.lost_parts.map(function (p, i) {
      return "<li" + (i === 0 ? ' class="largest"' : "") + attr(p.key, p.seconds) + ' data-share="' +
        (isNum(p.share) ? p.share : "") + '"><i style="background:var(' + COLORS[p.key] + ')"></i><span>' +
        esc(p.label) + '</span><span class="num">' + sec(p.seconds) + '</span><span class="num">' + pct(p.share) +
        "</span></li>";
    }).join("");
    return "<dt>Lost time</dt><dd" + attr("lost_time", d.lost_time) + ">" + sec(d.lost_time) + ", " +
      pct(d.lost_share) + " of Total time " + sec(d.total_time) + ', by its parts, largest first:<ul class="lost-parts">' +
      parts + "</ul></dd>";
  }
  function productiveHtml(d) {
    var q = d.productive;
    var io = q.io_large ? '<br><span class="io-large"' + attr("io", q.io) + ">I/O " + sec(q.io) + ", " +
      pct(q.io_share) + " of Total time: MPI-IO, productive by the method</span>" : "";
    return "<dt>Productive time</dt><dd" + attr("productive_time", q.seconds) + ">" + sec(q.seconds) + ": CPU " +
      sec(q.cpu) + ", Sys " + sec(q.sys) + ", I/O " + sec(q.io) + io + "</dd>";
  }
  function correctnessHtml(d) {
    var k = d.correctness;
    if (!k) return "";
    return '<dt>Correctness</dt><dd data-key="correctness"><span' + (k.errors ? ' class="errors"' : "") + ">" +
      k.errors + " error" + (k.errors === 1 ? "" : "s") + "</span>, " + k.warnings + " warning" +
      (k.warnings === 1 ? "" : "s") + (k.dropped ? ", more not kept" : "") + "</dd>";
  }
  function topHtml(d) {
    if (!d.top_src.length) return "<p>No MPI call was recorded.</p>";
    return '<table class="top-src"><thead><tr><th class=num>#</th><th class=num>SRC</th><th>MPI function</th>' +
      "<th>Call site</th><th class=num>Time (s)</th><th class=num>Calls</th><th class=num>Share of Lost time</th>" +
      "</tr></thead><tbody>" + d.top_src.map(function (s, i) {
        return '<tr data-src="' + s.id + '" data-time="' + s.time + '" data-share="' +
          (isNum(s.share_of_lost) ? s.share_of_lost : "") + '"><td class=num>' + (i + 1) +
          '</td><td class=num><button type="button" class="link" data-digest-src="' + s.id + '">SRC ' + esc(s.id) +
          "</button></td><td><code>" + esc(s["function"]) + '</code></td><td class="site" title="' + esc(s.site) +
          '"><code>' + esc(s.site) + "</code></td><td class=num>" + sec(s.time) + "</td><td class=num>" +
          esc(s.calls) + "</td><td class=num>" + (s.lost ? pct(s.share_of_lost) : "not Lost time") + "</td></tr>";
      }).join("") + "</tbody></table>";
  }
  // The digest of protocol p (a string of HTML).
  function html(p) {
    var d = p.doc.digest;
    if (!d) return '<p class="na">No digest: the protocol was written by an mpiprof without one.</p>';
    var r = d.run;
    return '<p class="digest-run" data-key="run"><code>' + esc(r.program) + "</code> \u2014 " + esc(r.processes) +
      " process" + (r.processes === 1 ? "" : "es") + " on " + esc(r.nodes) + " node" + (r.nodes === 1 ? "" : "s") +
      ", execution time " + sec(r.execution_time) + '</p><div class="digest-grid"><dl><dt>K<sub>eff</sub></dt><dd' +
      attr("keff", d.parallelization_efficiency) + '><span class="keff">' +
      (isNum(d.parallelization_efficiency) ? d.parallelization_efficiency.toFixed(4) : NA) +
      "</span> parallelization efficiency (productive / total time)</dd>" + lostHtml(d) + productiveHtml(d) +
      correctnessHtml(d) + '<dt>Warnings</dt><dd data-key="warnings" data-value="' + d.warnings + '">' +
      d.warnings + " (in Parameters)</dd></dl><div><h3>Top SRC points of the whole run</h3>" +
      '<p class="hint">Inclusive of sub-intervals, summed over intervals; a number shows the SRC point in ' +
      "interval 0 with its sub-intervals.</p>" + topHtml(d) + "</div></div>";
  }
  // The toggle of the SRC table: the calls made in the interval, or with
  // those of its sub-intervals (disabled for a protocol without them).
  function modeHtml(available) {
    var dis = available ? "" : " disabled";
    return '<span class="src-mode" role="radiogroup" aria-label="Calls the SRC table lists">' +
      '<label><input type="radio" name="src-mode" value="exclusive" checked' + dis + "> made in this interval</label>" +
      '<label><input type="radio" name="src-mode" value="inclusive"' + dis + "> with its sub-intervals</label></span>" +
      (available ? "" : '<span class="hint">(no sub-interval sums: an older protocol)</span>');
  }
  function bind(root) {
    root.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-digest-src]");
      if (b) view.gotoSrc(+b.dataset.digestSrc);
    });
  }
  // The digest of A (and B, side by side) into the page, and the toggle;
  // view.onMode(inclusive) when it is switched.
  function show(A, B) {
    var body = document.getElementById("digest-body"), mode = document.getElementById("src-mode");
    body.innerHTML = B ? '<div class="side-by-side"><div><h3>' + esc(A.label) + "</h3>" + html(A) +
      "</div><div><h3>" + esc(B.label) + "</h3>" + html(B) + "</div></div>" : html(A);
    bind(body);
    mode.innerHTML = modeHtml(!!A.doc.intervals[0].src_inclusive);
    mode.addEventListener("change", function (e) { view.onMode(e.target.value === "inclusive"); });
  }
  // The toggle's radio buttons set to `inclusive`.
  function setMode(inclusive) {
    document.querySelectorAll('input[name="src-mode"]').forEach(function (r) {
      r.checked = (r.value === "inclusive") === inclusive;
    });
  }
  return { html: html, modeHtml: modeHtml, bind: bind, show: show, setMode: setMode };
};
