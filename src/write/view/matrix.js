/* mpiprof-view: the Communication matrix panel (mpiprof(7), COMMUNICATION
 * MATRIX), drawn after the page by itself from the same protocol data,
 * for the first protocol of the page.  The node pairs as a small SVG heat
 * map and the totals within and between nodes; the process pairs as a
 * canvas heat map with the processes ordered by node, each node a block
 * (one pixel a cell at 1,024 processes); per node the processes' Lost time
 * (interval 0, the processes with per-process values) as bars side by
 * side; the heaviest pairs as a table.  A cell's figures show on hover and
 * in the table, as the JSON has them.  window.mpiprofMatrix.cell(from, to)
 * gives a drawn cell's figures and colour (the page tests read it). */
"use strict";
(function () {
  var METRICS = [["bytes", "Bytes"], ["messages", "Messages"], ["time", "Time (s)"]];
  var state = { metric: "bytes" }, label = "";

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function grouped(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009"); }
  function fig(v, metric) { return metric === "time" ? v.toFixed(6) + "\u00a0s" : grouped(v) + (metric === "bytes" ? "\u00a0B" : ""); }
  // white for nothing, then light to dark blue on a log scale of value/max
  function shade(v, max) {
    if (!(v > 0) || !(max > 0)) return null;
    var f = Math.log(1 + 9 * v / max) / Math.log(10);
    return "hsl(212, 75%, " + Math.round(92 - 62 * f) + "%)";
  }
  function rows(block) {
    var out = [];
    for (var i = 0; i < block.from.length; i++)
      out.push({ from: block.from[i], to: block.to[i], messages: block.messages[i], bytes: block.bytes[i], time: block.time[i] });
    return out;
  }

  function nodeMapHtml(m) {
    var list = rows(m.node_pairs), n = m.nodes.length, max = 0, cell = Math.max(8, Math.min(40, Math.floor(320 / n)));
    list.forEach(function (p) { max = Math.max(max, p[state.metric]); });
    var size = n * cell, html = '<svg id="matrix-nodes" role="img" aria-label="Node pairs" width="' + (size + 2) +
      '" height="' + (size + 2) + '"><rect x="1" y="1" width="' + size + '" height="' + size + '" fill="#fff" stroke="#999"/>';
    list.forEach(function (p) {
      var c = shade(p[state.metric], max);
      html += '<rect class="node-cell" data-from="' + p.from + '" data-to="' + p.to + '" data-value="' + p[state.metric] +
        '" x="' + (1 + p.to * cell) + '" y="' + (1 + p.from * cell) + '" width="' + cell + '" height="' + cell +
        '" fill="' + (c || "#fff") + '" stroke="#fff"><title>' + esc(m.nodes[p.from].name + " \u2192 " + m.nodes[p.to].name + ": " +
        grouped(p.messages) + " messages, " + grouped(p.bytes) + " B, " + p.time.toFixed(6) + " s") + "</title></rect>";
    });
    return html + "</svg>";
  }

  // processes in node order: position of each rank shown
  function layout(m) {
    var order = [], blocks = [];
    m.nodes.forEach(function (nd, k) {
      blocks.push({ node: k, first: order.length, count: nd.ranks.length });
      nd.ranks.forEach(function (r) { order.push(r); });
    });
    var at = {};
    order.forEach(function (r, i) { at[r] = i; });
    return { order: order, at: at, blocks: blocks };
  }

  function drawProcesses(m, canvas, lay) {
    var n = lay.order.length, cell = Math.max(1, Math.min(24, Math.floor(768 / Math.max(n, 1))));
    canvas.width = canvas.height = n * cell;
    var g = canvas.getContext("2d"), list = rows(m.pairs), max = 0, cells = {};
    list.forEach(function (p) { max = Math.max(max, p[state.metric]); });
    g.fillStyle = "#fff";
    g.fillRect(0, 0, canvas.width, canvas.height);
    list.forEach(function (p) {
      var c = shade(p[state.metric], max);
      cells[p.from + "," + p.to] = { pair: p, colour: c };
      if (!c || lay.at[p.from] === undefined || lay.at[p.to] === undefined) return;
      g.fillStyle = c;
      g.fillRect(lay.at[p.to] * cell, lay.at[p.from] * cell, cell, cell);
    });
    g.strokeStyle = "#b00";
    g.lineWidth = 1;
    lay.blocks.forEach(function (b) { // the nodes as blocks
      g.strokeRect(b.first * cell + 0.5, b.first * cell + 0.5, b.count * cell - 1, b.count * cell - 1);
    });
    return { cell: cell, cells: cells };
  }

  function lostHtml(doc, m) {
    var by = doc.intervals[0].real.by_process, lost = {}, max = 0;
    by.ranks.forEach(function (r, i) {
      if (typeof by.lost_time[i] === "number") { lost[r] = by.lost_time[i]; max = Math.max(max, by.lost_time[i]); }
    });
    var html = '<div id="matrix-lost" class="matrix-lost">';
    m.nodes.forEach(function (nd, k) {
      var shown = nd.ranks.filter(function (r) { return lost[r] !== undefined; });
      html += '<figure class="node-lost" data-node="' + k + '"><figcaption>' + esc(nd.name) + " (" + nd.ranks.length +
        " processes)</figcaption>";
      if (!shown.length) html += "<span>n/a: no per-process values (MPIPROF_RANKS)</span>";
      else {
        var w = Math.max(1, Math.min(12, Math.floor(240 / shown.length)));
        html += '<svg width="' + (shown.length * w) + '" height="40" role="img" aria-label="Lost time of ' + esc(nd.name) + "'s processes\">";
        shown.forEach(function (r, i) {
          var h = max > 0 ? Math.max(1, Math.round(38 * lost[r] / max)) : 1;
          html += '<rect class="lost-bar" data-rank="' + r + '" data-value="' + lost[r] + '" x="' + (i * w) + '" y="' +
            (40 - h) + '" width="' + Math.max(1, w - 1) + '" height="' + h + '" fill="var(--lost, #c44)"><title>rank ' + r +
            ": Lost time " + lost[r].toFixed(6) + " s</title></rect>";
        });
        html += "</svg>";
      }
      html += "</figure>";
    });
    return html + "</div>";
  }

  function tableHtml(m) {
    var list = rows(m.pairs);
    list.sort(function (a, b) { return b[state.metric] - a[state.metric] || a.from - b.from || a.to - b.to; });
    list = list.slice(0, 20);
    var html = '<table id="matrix-pairs"><caption>Heaviest process pairs (by ' + state.metric + ")</caption><thead><tr>" +
      "<th>From</th><th>To</th><th>Messages</th><th>Bytes</th><th>Time</th></tr></thead><tbody>";
    list.forEach(function (p) {
      html += '<tr data-from="' + p.from + '" data-to="' + p.to + '"><td class=num>' + p.from + "</td><td class=num>" +
        p.to + "</td><td class=num>" + grouped(p.messages) + "</td><td class=num>" + grouped(p.bytes) +
        "</td><td class=num>" + p.time.toFixed(6) + "</td></tr>";
    });
    return html + "</tbody></table>";
  }

  function totalsHtml(m) {
    function line(label, t) {
      return "<tr><th>" + label + "</th><td class=num>" + grouped(t.messages) + "</td><td class=num>" + grouped(t.bytes) +
        "</td><td class=num>" + t.time.toFixed(6) + "</td></tr>";
    }
    return '<table id="matrix-totals"><thead><tr><th></th><th>Messages</th><th>Bytes</th><th>Time (s)</th></tr></thead><tbody>' +
      line("Within nodes", m.within_nodes) + line("Between nodes", m.between_nodes) + "</tbody></table>";
  }

  function render(doc, section, label) {
    var m = doc.matrix;
    var body = '<h2 id="matrix-title">Communication matrix' + (label ? " of " + esc(label) : "") + "</h2>";
    if (!m) {
      // a run's own reason (MPIPROF_MATRIX=off, no memory) is among its Warnings
      var said = ((doc.parameters && doc.parameters.warnings) || []).filter(function (w) {
        return String(w).indexOf("The communication matrix is n/a: ") === 0;
      })[0];
      section.innerHTML = body + "<p>" + (said ? "n/a: " + esc(said.slice(33)) + "." :
        "n/a: a partial protocol has one process's row only (mpiprof-merge of every process's gives the matrix).") +
        "</p>";
      return null;
    }
    var which = m.complete ? "every process pair" : "the pairs of the processes MPIPROF_RANKS selects and the " +
      m.heaviest + " heaviest others (" + m.processes + " processes &gt; MPIPROF_MATRIX_RANKS=" + m.limit + ")";
    body += '<p class="hint">Point-to-point calls (collectives are not pairs): a cell from a row\'s process to a ' +
      "column's, the messages and bytes it sent, the time of its calls naming the peer. " + m.processes +
      " processes on " + m.nodes.length + (m.nodes.length === 1 ? " node" : " nodes") + "; shown: " + which + ".</p>" +
      '<div class="controls"><label for="matrix-metric">Colour by</label> <select id="matrix-metric">' +
      METRICS.map(function (x) { return '<option value="' + x[0] + '"' + (x[0] === state.metric ? " selected" : "") + ">" + x[1] + "</option>"; }).join("") +
      "</select></div>" + totalsHtml(m) + '<div class="matrix-maps"><figure><figcaption>Node pairs</figcaption>' +
      nodeMapHtml(m) + '</figure><figure><figcaption>Process pairs, by node (red blocks)</figcaption>' +
      '<canvas id="matrix-canvas" role="img" aria-label="Process pairs"></canvas><p id="matrix-hover" aria-live="polite"></p>' +
      "</figure></div><h3>Lost time of each node's processes</h3>" + lostHtml(doc, m) + tableHtml(m);
    section.innerHTML = body;
    var lay = layout(m), canvas = document.getElementById("matrix-canvas"), drawn = drawProcesses(m, canvas, lay);
    canvas.addEventListener("mousemove", function (e) {
      var box = canvas.getBoundingClientRect(), i = Math.floor((e.clientY - box.top) / drawn.cell),
        j = Math.floor((e.clientX - box.left) / drawn.cell), from = lay.order[i], to = lay.order[j];
      var c = drawn.cells[from + "," + to];
      document.getElementById("matrix-hover").textContent = from === undefined || to === undefined ? "" :
        "rank " + from + " \u2192 rank " + to + ": " + (c ? grouped(c.pair.messages) + " messages, " + grouped(c.pair.bytes) +
        " B, " + c.pair.time.toFixed(6) + " s" : "nothing");
    });
    document.getElementById("matrix-metric").addEventListener("change", function (e) {
      state.metric = e.target.value;
      api.drawn = render(doc, section, label);
    });
    return { layout: lay, drawn: drawn };
  }

  var api = {
    drawn: null,
    // {messages, bytes, time, colour, x, y} of a drawn process cell, or null
    cell: function (from, to) {
      var d = api.drawn;
      if (!d || !d.drawn.cells[from + "," + to]) return null;
      var c = d.drawn.cells[from + "," + to];
      return { messages: c.pair.messages, bytes: c.pair.bytes, time: c.pair.time, colour: c.colour,
        x: d.layout.at[to] * d.drawn.cell, y: d.layout.at[from] * d.drawn.cell, size: d.drawn.cell };
    }
  };
  window.mpiprofMatrix = api;

  // the panel's own layout (view.css belongs to the rest of the page)
  var STYLE = "#matrix .matrix-maps{display:flex;flex-wrap:wrap;gap:2rem;align-items:flex-start}" +
    "#matrix figure{margin:0}#matrix .matrix-lost{display:flex;flex-wrap:wrap;gap:1rem}" +
    "#matrix table{border-collapse:collapse;margin:0.5rem 0}#matrix td,#matrix th{padding:0.1rem 0.5rem}" +
    "#matrix canvas{image-rendering:pixelated;border:1px solid #999}";

  function start() {
    var data;
    try { data = JSON.parse(document.getElementById("mpiprof-data").textContent); } catch (e) { return; } // view.js says why
    if (!data || !data.protocols || !data.protocols.length) return;
    var main = document.getElementById("main"), section = document.createElement("section");
    section.id = "matrix";
    var style = document.createElement("style");
    style.textContent = STYLE;
    document.head.appendChild(style);
    section.setAttribute("aria-labelledby", "matrix-title");
    main.appendChild(section);
    // of the first protocol; named when the page has several
    label = data.protocols.length > 1 ? data.protocols[0].label : "";
    api.drawn = render(data.protocols[0].doc, section, label);
    document.body.dataset.matrix = "1";
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
