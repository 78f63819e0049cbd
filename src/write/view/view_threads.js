/* mpiprof-view: an SRC point's time by thread (mpiprof-protocol(5), "by
 * thread"), as the JSON's "threads" has it: at MPI_THREAD_MULTIPLE, for a
 * call site more than one thread of a process called.  A table of thread
 * index (the order in which a process's threads first called MPI; the
 * thread of MPI_Init is 0) against the time summed over the processes and
 * that of each selected process; the threads past the first 8 summed, as
 * the protocol keeps them.  view.js puts mpiprofThreadsHtml(s, esc, sec)
 * under an SRC point's statistics ("" where the protocol gives none). */
"use strict";
var mpiprofThreadsHtml = function (s, esc, sec) {
  var t = s && s.threads;
  if (!t || !t.shown_in_text) return "";
  var columns = [{ label: "all processes", by: t.by_index, beyond: t.beyond }].concat(t.by_process.map(function (p) {
    return { label: "rank " + p.rank, by: p.by_index, beyond: p.beyond };
  }));
  var indexes = {};
  columns.forEach(function (c) { Object.keys(c.by).forEach(function (k) { indexes[k] = true; }); });
  var rows = Object.keys(indexes).map(Number).sort(function (a, b) { return a - b; }).map(function (i) {
    return '<tr data-thread="' + i + '"><td>' + i + (i === 0 ? " (MPI_Init's)" : "") + "</td>" + columns.map(function (c) {
      var v = c.by[String(i)];
      return '<td class=num data-value="' + (v === undefined ? "" : v) + '">' + (v === undefined ? "\u2014" : sec(v)) +
        "</td>";
    }).join("") + "</tr>";
  });
  var past = columns.filter(function (c) { return c.beyond; })[0]; // the slots' end, as the JSON says
  if (past)
    rows.push('<tr data-thread="beyond"><td>' + esc(past.beyond.first_index) + " and beyond</td>" +
      columns.map(function (c) {
        return c.beyond ? '<td class=num data-value="' + c.beyond.time + '">' + sec(c.beyond.time) + " (" +
          esc(c.beyond.threads) + " threads)</td>" : '<td class=num data-value="">\u2014</td>';
      }).join("") + "</tr>");
  var spread = t.per_thread ? "; one thread's time from " + sec(t.per_thread.min) + " (rank " +
    esc(t.per_thread.min_rank) + ") to " + sec(t.per_thread.max) + " (rank " + esc(t.per_thread.max_rank) + ")" : "";
  return '<div class="by-thread"><h5>By thread</h5><p>' + esc(t.threads_max) + " threads of one process at most (rank " +
    esc(t.threads_max_rank) + ")" + spread + '.</p><table class="per-thread"><thead><tr><th>thread</th>' +
    columns.map(function (c) { return "<th class=num>" + esc(c.label) + "</th>"; }).join("") +
    "</tr></thead><tbody>" + rows.join("") + "</tbody></table></div>";
};
