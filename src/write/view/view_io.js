/* mpiprof-view: the selected interval's I/O figures (mpiprof-protocol(5),
 * I/O): its MPI-IO calls, bytes read and written, I/O time and its share of
 * the execution time, bandwidth, as the JSON's "io" has them.  view.js
 * puts mpiprofIoHtml(interval) under the characteristics ("" for a
 * protocol written before the figures existed). */
"use strict";
var mpiprofIoHtml = function (iv) {
  var io = iv.io;
  if (!io) return "";
  function grouped(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009"); }
  function fig(key, text) { return '<span data-key="' + key + '" data-value="' + (io[key] === null ? "" : io[key]) + '">' + text + "</span>"; }
  if (!io.calls && !(io.time > 0)) return '<h3>I/O</h3><p id="io-none">No MPI-IO calls in this interval.</p>';
  return "<h3>I/O</h3><p>" + fig("calls", grouped(io.calls)) + " MPI-IO calls: " + fig("bytes_read", grouped(io.bytes_read) + "\u00a0B") +
    " read, " + fig("bytes_written", grouped(io.bytes_written) + "\u00a0B") + " written; I/O time " +
    fig("time", io.time.toFixed(6) + "\u00a0s") + " (summed over processes), " +
    fig("share", io.share === null ? "n/a" : (100 * io.share).toFixed(1) + "\u00a0%") + " of the execution time; bandwidth " +
    fig("bandwidth", io.bandwidth === null ? "n/a" : grouped(Math.round(io.bandwidth)) + "\u00a0B/s") + ".</p>";
};
