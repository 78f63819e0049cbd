/* mpiprof-view: the Scaling panel of a page of several protocols at
 * different process counts.  Every number is one of data.scaling, the
 * study mpiprof-compare prints (src/compare/scaling.c, written into the
 * page by mpiprof-view): nothing is computed here but the charts'
 * geometry.  Charts are small hand-made SVG (the page uses no chart
 * library): execution time, and scaling efficiency and K_eff, against P;
 * Lost time per process stacked by part against P.  Then the table, Lost
 * time by part, the part that grew fastest, the fitted models (marked as
 * fits) and the SRC points' times per P.  view.js calls
 * mpiprofScaling(view) once, with what it shares: data, esc, sec, ratio. */
"use strict";
var mpiprofScaling = function (view) {
  var s = view.data.scaling, esc = view.esc;
  function isNum(x) { return typeof x === "number" && isFinite(x); }
  function pcount(p) { return String(p); }
  // The leaf parts of Lost time, stacked in the third chart (their colours: view.css).
  var STACK = [["insufficient_parallelism", "--c-insufficient"], ["sendrecv", "--c-sendrecv"],
    ["collective", "--c-collective"], ["system", "--c-system"], ["idle_time", "--c-idle"]];
  var W = 360, H = 220, L = 64, R = 12, T = 14, B = 40;

  // x: P on a log2 scale (evenly spaced doublings); y: 0 to the largest value.
  function axes(ps, top, yLabel, fmt) {
    var lo = Math.log2(ps[0]), hi = Math.log2(ps[ps.length - 1]);
    var pad = 24; // the first and last bars stay inside the axes
    var x = function (p) { return L + pad + (hi > lo ? (Math.log2(p) - lo) / (hi - lo) : 0.5) * (W - L - R - 2 * pad); };
    var y = function (v) { return H - B - (top > 0 ? v / top : 0) * (H - T - B); };
    var g = '<line class="axis" x1="' + L + '" y1="' + (H - B) + '" x2="' + (W - R) + '" y2="' + (H - B) + '"/>' +
      '<line class="axis" x1="' + L + '" y1="' + T + '" x2="' + L + '" y2="' + (H - B) + '"/>';
    ps.forEach(function (p) {
      g += '<text class="tick" x="' + x(p).toFixed(1) + '" y="' + (H - B + 14) + '" text-anchor="middle">' + pcount(p) + "</text>";
    });
    [0, 0.5, 1].forEach(function (f) {
      g += '<text class="tick" x="' + (L - 4) + '" y="' + (y(f * top) + 4).toFixed(1) + '" text-anchor="end">' +
        fmt(f * top) + "</text>";
    });
    g += '<text class="axis-label" x="' + ((L + W - R) / 2) + '" y="' + (H - 6) + '" text-anchor="middle">processes P</text>' +
      '<text class="axis-label" x="12" y="' + ((T + H - B) / 2) + '" text-anchor="middle" transform="rotate(-90 12 ' +
      ((T + H - B) / 2) + ')">' + esc(yLabel) + "</text>";
    return { x: x, y: y, svg: g };
  }
  function svg(id, title, body) {
    return '<figure class="chart"><svg id="' + id + '" viewBox="0 0 ' + W + " " + H + '" width="' + W + '" height="' + H +
      '" role="img" aria-label="' + esc(title) + '">' + body + "</svg><figcaption>" + esc(title) + "</figcaption></figure>";
  }
  // One line of points (the measured values, each with its number as a title).
  function line(ax, ps, values, cls, what) {
    var pts = [];
    ps.forEach(function (p, i) { if (isNum(values[i])) pts.push([ax.x(p), ax.y(values[i]), p, values[i]]); });
    return '<polyline class="' + cls + '" fill="none" points="' + pts.map(function (q) {
      return q[0].toFixed(1) + "," + q[1].toFixed(1);
    }).join(" ") + '"/>' + pts.map(function (q) {
      return '<circle class="' + cls + '" data-p="' + q[2] + '" data-value="' + q[3] + '" cx="' + q[0].toFixed(1) +
        '" cy="' + q[1].toFixed(1) + '" r="3.5"><title>' + esc(what + " at P = " + q[2] + ": " + q[3]) + "</title></circle>";
    }).join("");
  }
  function max(values) { return Math.max.apply(null, values.filter(isNum).concat([0])); }
  function col(key) { return s.rows.map(function (r) { return r[key]; }); }
  function part(key, k) { return s.rows.map(function (r) { return r.parts[key] ? r.parts[key][k] : null; }); }

  function timeChart() {
    var t = col("execution_time"), ax = axes(s.processes, max(t) * 1.1, "execution time (s)", function (v) {
      return v.toPrecision(2);
    });
    return svg("chart-time", "Execution time against P", ax.svg + line(ax, s.processes, t, "time", "execution time"));
  }
  function efficiencyChart() {
    var e = col("scaling_efficiency"), k = col("parallelization_efficiency");
    var ax = axes(s.processes, Math.max(1, max(e), max(k)), "efficiency", function (v) { return v.toFixed(1); });
    return svg("chart-efficiency", "Scaling efficiency (solid) and K_eff (dashed) against P",
      ax.svg + line(ax, s.processes, e, "efficiency", "scaling efficiency") +
      line(ax, s.processes, k, "keff", "K_eff"));
  }
  function lostChart() {
    var totals = s.rows.map(function (r) {
      return STACK.reduce(function (sum, q) {
        var v = r.parts[q[0]] && r.parts[q[0]].per_process;
        return sum + (isNum(v) ? Math.max(0, v) : 0);
      }, 0);
    });
    var ax = axes(s.processes, max(totals) * 1.1, "Lost time per process (s)", function (v) { return v.toPrecision(2); });
    var style = getComputedStyle(document.documentElement), bars = "";
    var bw = Math.max(8, Math.min(36, (W - L - R - 48) / (s.processes.length * 2)));
    s.rows.forEach(function (r, i) {
      var base = 0, x = ax.x(s.processes[i]) - bw / 2;
      STACK.forEach(function (q) {
        var v = r.parts[q[0]] && r.parts[q[0]].per_process;
        if (!isNum(v) || v <= 0) return;
        var y0 = ax.y(base), y1 = ax.y(base + v);
        bars += '<rect data-part="' + q[0] + '" data-p="' + s.processes[i] + '" data-value="' + v + '" x="' + x.toFixed(1) +
          '" y="' + y1.toFixed(1) + '" width="' + bw.toFixed(1) + '" height="' + Math.max(0, y0 - y1).toFixed(1) +
          '" fill="' + style.getPropertyValue(q[1]).trim() + '"><title>' + esc(view.label(q[0]) + " at P = " +
          s.processes[i] + ": " + v.toFixed(6) + " s per process") + "</title></rect>";
        base += v;
      });
    });
    var legend = '<ul class="legend">' + STACK.map(function (q) {
      return '<li><i style="background:var(' + q[1] + ')"></i>' + esc(view.label(q[0])) + "</li>";
    }).join("") + "</ul>";
    return svg("chart-lost", "Lost time per process by part against P (stacked)", ax.svg + bars) + legend;
  }

  function cell(key, x, text) {
    return '<td class="num" data-key="' + key + '" data-value="' + (isNum(x) ? x : "") + '">' + text + "</td>";
  }
  function tableHtml() {
    return '<table id="scaling-table" class="scaling"><thead><tr><th class=num>P</th><th class=num>Execution time</th>' +
      "<th class=num>Speedup</th><th class=num>Scaling efficiency</th><th class=num>K<sub>eff</sub></th>" +
      "<th class=num>Lost time</th><th class=num>Lost time per process</th><th>protocol</th></tr></thead><tbody>" +
      s.rows.map(function (r) {
        var lost = r.parts.lost_time || {};
        return '<tr data-p="' + r.processes + '">' + cell("processes", r.processes, pcount(r.processes)) +
          cell("execution_time", r.execution_time, view.sec(r.execution_time)) +
          cell("speedup", r.speedup, isNum(r.speedup) ? r.speedup.toFixed(3) : view.NA) +
          cell("scaling_efficiency", r.scaling_efficiency, isNum(r.scaling_efficiency) ? r.scaling_efficiency.toFixed(3) : view.NA) +
          cell("parallelization_efficiency", r.parallelization_efficiency, view.ratio(r.parallelization_efficiency)) +
          cell("lost_time", lost.sum, view.sec(lost.sum)) + cell("lost_per_process", lost.per_process, view.sec(lost.per_process)) +
          "<td>" + esc(r.label) + "</td></tr>";
      }).join("") + "</tbody></table>";
  }
  function partsHtml() {
    return '<table id="scaling-parts" class="scaling"><thead><tr><th>seconds summed over processes / per process</th>' +
      s.processes.map(function (p) { return "<th class=num>P = " + pcount(p) + "</th>"; }).join("") + "</tr></thead><tbody>" +
      s.parts.map(function (q) {
        return '<tr data-key="' + q.name + '"><td class="indent' + q.level + '">' + esc(q.label) + "</td>" +
          s.rows.map(function (r) {
            var v = r.parts[q.name] || {};
            return cell(q.name, v.sum, view.sec(v.sum) + " / " + view.sec(v.per_process));
          }).join("") + "</tr>";
      }).join("") + "</tbody></table>" + '<p id="scaling-fastest" data-part="' + (s.fastest ? s.fastest.name : "") + '">' +
      (s.fastest ? "Part of Lost time that grew fastest: <strong>" + esc(s.fastest.label) + "</strong> (" +
        (s.fastest.growth >= 0 ? "+" : "") + s.fastest.growth.toFixed(6) + " s per process from P = " + s.processes[0] +
        " to P = " + s.processes[s.processes.length - 1] + ")" : "Part of Lost time that grew fastest: n/a (" +
        esc(s.fastest_na_reason) + ")") + "</p>";
  }
  function fitText(item) {
    if (!item.fit) return '<span class="na">n/a (' + esc(item.na_reason) + ")</span>";
    var f = item.fit;
    return "<code>" + esc(f.model) + "</code> (error " + (100 * f.error).toFixed(2) + "%, cross-validated " +
      (100 * f.cv_error).toFixed(2) + "%); <em>fit</em> at " + f.predictions.map(function (q) {
        return "P = " + q.processes + ": " + q.value.toFixed(6) + " s";
      }).join(", ");
  }
  function fitsHtml() {
    return "<h3>Scaling models (fitted, not measured)</h3><p class=\"hint\">a + b\u00b7P<sup>i</sup>\u00b7log<sub>2</sub>(P)" +
      "<sup>j</sup> by least squares of relative errors, the term chosen by leave-one-out cross-validation; error: " +
      "mean relative error at the measured P. Beyond the measured P a fit is a guess.</p>" +
      '<table id="scaling-fits" class="scaling"><tbody>' + s.fits.map(function (f) {
        return '<tr data-key="' + f.name + '"><td>' + esc(f.label) + "</td><td>" + fitText(f) + "</td></tr>";
      }).join("") + "</tbody></table>";
  }
  function srcHtml() {
    var top = s.src.slice(0, 20);
    return "<h3>SRC points: time against P</h3><p class=\"hint\">Seconds summed over processes; the " + top.length +
      " of " + s.src.length + " slowest at the largest P.</p>" +
      '<table id="scaling-src" class="scaling"><thead><tr><th>Interval</th><th>SRC point</th>' +
      s.processes.map(function (p) { return "<th class=num>P = " + pcount(p) + "</th>"; }).join("") +
      "<th>model</th></tr></thead><tbody>" + top.map(function (x) {
        return "<tr><td>" + esc(x.where) + '</td><td class="site"><code>' + esc(x.src) + "</code></td>" +
          x.times.map(function (t) { return cell("time", t, view.sec(t)); }).join("") + "<td>" + fitText(x) + "</td></tr>";
      }).join("") + "</tbody></table>";
  }

  return {
    shown: !!(s && !s.na_reason),
    html: function () {
      return "<p>" + esc(s.where) + ": " + s.rows.length + " runs at P = " + s.processes.join(", ") +
        "; speedup and scaling efficiency (speedup \u00d7 " + s.processes[0] + " / P) against P = " + s.processes[0] +
        '.</p><div class="charts">' + timeChart() + efficiencyChart() + lostChart() + "</div>" + tableHtml() +
        partsHtml() + fitsHtml() + srcHtml();
    }
  };
};
