/* mpiprof-view: which run a page of several protocols compares with the
 * first.  The matching of intervals and SRC points is computed by
 * mpiprof-view for every protocol against the first (data.matches), so
 * any of them can be the second side: the last by default (a scaling
 * study's largest P), another when the page's address says #compare=K.
 * Choosing one in the Differences title sets that address and draws the
 * page anew, so nothing drawn for the former choice is left behind. */
"use strict";
var mpiprofRuns = {
  // The protocol to compare with the first (null: the page has one).
  chosen: function (data) {
    var n = data.protocols.length, m = /(?:^#|&)compare=(\d+)/.exec(window.location.hash);
    var k = m && +m[1] >= 1 && +m[1] < n ? +m[1] : n - 1;
    return n > 1 ? data.protocols[k] : null;
  },
  // The Differences title: with more than two protocols, a chooser of the second.
  title: function (data, A, B, esc) {
    var title = document.getElementById("comparison-title");
    if (!B || data.protocols.length < 3) return;
    var options = data.protocols.map(function (p, k) {
      return k ? '<option value="' + k + '"' + (p === B ? " selected" : "") + ">" + esc(p.label) + " (P = " +
        esc(p.doc.parameters.processes) + ")</option>" : "";
    }).join("");
    title.innerHTML = "Differences: " + esc(A.label) + ' (first) and <select id="compare-with" aria-label="' +
      'the run compared with the first">' + options + "</select>";
    document.getElementById("compare-with").addEventListener("change", function (e) {
      window.location.hash = "compare=" + e.target.value;
      window.location.reload();
    });
  }
};
