// The style and the script of the HTML report (HTMLReport): hand-written, no library. The script
// reads the page's JSON, draws the lanes as SVG (clipped to the view, redrawn on zoom and pan),
// makes each violation a marker with `data-violation` and `data-line`, and marks the body
// `data-rendered="ok"` when done (`data-errors` if a script error happened: the browser test reads
// both). Light and dark through `prefers-color-scheme`.

enum HTMLReportAssets {
    static let css = """
    :root{--bg:#fff;--fg:#1d1d1f;--dim:#6e6e73;--grid:#e5e5ea;--panel:#f5f5f7;--active:#34c759;--inactive:#a2d9b1;--background:#0a84ff;
    --suspended:#c7c7cc;--bar:#5e5ce6;--late:#ff3b30;--budget:#d6e4ff;--req:#ff9f0a;--act:#1d1d1f;--error:#ff3b30;--warning:#ff9500}
    @media (prefers-color-scheme:dark){:root{--bg:#1c1c1e;--fg:#f2f2f7;--dim:#98989d;--grid:#38383a;--panel:#2c2c2e;--inactive:#30663f;
    --suspended:#48484a;--budget:#1f3558;--act:#f2f2f7}}
    *{box-sizing:border-box}body{margin:0;font:13px/1.4 -apple-system,system-ui,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
    header{padding:12px 16px;border-bottom:1px solid var(--grid)}h1{font-size:18px;margin:0 0 2px}h2{font-size:14px;margin:8px 0}
    .meta,.hint{color:var(--dim)}.result{font-weight:600;margin-top:4px}.result.pass{color:var(--active)}.result.fail{color:var(--error)}
    code,pre{font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}pre{background:var(--panel);padding:8px;overflow:auto}
    main{display:flex;gap:12px;padding:8px 16px}#chart{flex:1;min-width:0;position:relative}aside{width:320px;flex:none;max-height:85vh;overflow:auto}
    svg{display:block;width:100%;user-select:none;cursor:grab}svg.dragging{cursor:grabbing}
    .lane-label{fill:var(--fg);font-size:12px}.tick{fill:var(--dim);font-size:11px}.gridline{stroke:var(--grid)}
    .s-active{fill:var(--active)}.s-inactive{fill:var(--inactive)}.s-background{fill:var(--background)}.s-suspended{fill:var(--suspended)}
    .s-unattached{fill:var(--grid)}.budget{fill:var(--budget)}.warn{stroke:var(--warning);stroke-dasharray:3 2}.deadline{stroke:var(--late);stroke-width:2}
    .bar{fill:var(--bar)}.late{fill:var(--late)}.req{fill:var(--req)}.act{fill:var(--act)}.pt-launch{fill:var(--active)}.pt-end{fill:var(--late)}
    .marker.error polygon{fill:var(--error)}.marker.warning polygon{fill:var(--warning)}.marker{cursor:pointer}.marker line{stroke-width:1;stroke-dasharray:2 3}
    .marker.error line{stroke:var(--error)}.marker.warning line{stroke:var(--warning)}.marker.selected polygon{stroke:var(--fg);stroke-width:2}
    #violations{list-style:none;padding:0;margin:0}#violations li{padding:6px;border-left:3px solid var(--warning);margin-bottom:4px;background:var(--panel);cursor:pointer}
    #violations li.error{border-color:var(--error)}#violations li.none{border-color:var(--active);cursor:default}.msg{color:var(--dim)}.t{color:var(--dim)}
    #detail{position:absolute;right:8px;top:28px;max-width:420px;background:var(--panel);border:1px solid var(--grid);padding:8px;border-radius:6px}
    """

    static let script = """
    (function () {
      "use strict";
      var errors = [];
      window.addEventListener("error", function (e) {
        errors.push(String(e.message));
        document.body.setAttribute("data-errors", errors.join(" | "));
      });
      var D = JSON.parse(document.getElementById("data").textContent);
      var svg = document.getElementById("svg"), detail = document.getElementById("detail");
      var NS = "http://www.w3.org/2000/svg", LABEL = 160, LANE = 22, AXIS = 24, VROW = 24;
      var full = { t0: 0, t1: Math.max(D.end, 1) }, view = { t0: full.t0, t1: full.t1 }, selected = -1;
      function el(name, attrs, parent, text) {
        var e = document.createElementNS(NS, name);
        for (var k in attrs) e.setAttribute(k, attrs[k]);
        if (text !== undefined) e.textContent = text;
        if (parent) parent.appendChild(e);
        return e;
      }
      function width() { return Math.max(480, svg.parentNode.clientWidth); }
      function x(t) { return LABEL + (t - view.t0) / (view.t1 - view.t0) * (width() - LABEL - 8); }
      function clampX(v) { return Math.max(LABEL, Math.min(width() - 8, v)); }
      function pad(n, w) { n = String(n); while (n.length < w) n = "0" + n; return n; }
      function stamp(t) {
        var ms = t % 1000, s = Math.floor(t / 1000), d = Math.floor(s / 86400);
        s -= d * 86400;
        return "+" + d + "d" + pad(Math.floor(s / 3600), 2) + ":" + pad(Math.floor(s / 60) % 60, 2) + ":" + pad(s % 60, 2) + "." + pad(ms, 3);
      }
      var STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4, 12e4, 3e5, 6e5, 9e5, 18e5, 36e5, 72e5,
                   108e5, 216e5, 432e5, 864e5, 1728e5, 6048e5];
      function tickStep() {
        var span = view.t1 - view.t0, px = width() - LABEL;
        for (var i = 0; i < STEPS.length; i++) if (STEPS[i] / span * px >= 90) return STEPS[i];
        return STEPS[STEPS.length - 1];
      }
      function label(t, step) {
        var s = stamp(t);
        if (step >= 864e5) return s.slice(0, s.indexOf("d") + 1);
        if (step >= 6e4) return s.slice(0, s.length - 7);
        if (step >= 1e3) return s.slice(0, s.length - 4);
        return s;
      }
      function visible(a, b) { return b >= view.t0 && a <= view.t1; }
      function title(parent, text) { el("title", {}, parent, text); }
      function render() {
        while (svg.firstChild) svg.removeChild(svg.firstChild);
        var w = width(), h = AXIS + VROW + D.lanes.length * LANE + 8;
        svg.setAttribute("viewBox", "0 0 " + w + " " + h);
        svg.setAttribute("height", h);
        var step = tickStep(), first = Math.ceil(view.t0 / step) * step;
        for (var t = first; t <= view.t1; t += step) {
          var tx = x(t);
          el("line", { x1: tx, x2: tx, y1: AXIS - 4, y2: h, "class": "gridline" }, svg);
          if (tx < w - 70) el("text", { x: tx + 2, y: AXIS - 8, "class": "tick" }, svg, label(t, step));
        }
        el("text", { x: 4, y: AXIS + 16, "class": "lane-label" }, svg, "violations");
        D.lanes.forEach(function (lane, i) {
          var y = AXIS + VROW + i * LANE, g = el("g", { "data-lane": lane.name }, svg);
          el("text", { x: 4, y: y + 15, "class": "lane-label" }, g, lane.name);
          lane.items.forEach(function (it) { draw(lane.kind, it, y, g); });
        });
        D.violations.forEach(function (v, i) {
          if (!visible(v[0], v[0])) return;
          var vx = x(v[0]), g = el("g", { "class": "marker " + v[2], "data-violation": v[1], "data-line": v[3] || "-", "data-index": i }, svg);
          if (i === selected) g.setAttribute("class", "marker " + v[2] + " selected");
          el("line", { x1: vx, x2: vx, y1: AXIS + VROW, y2: h }, g);
          el("polygon", { points: (vx - 6) + "," + (AXIS + 4) + " " + (vx + 6) + "," + (AXIS + 4) + " " + vx + "," + (AXIS + 18) }, g);
          title(g, stamp(v[0]) + "  " + v[1] + (v[3] ? "  " + v[3] : "") + "\\n" + v[4]);
          g.addEventListener("click", function (e) { e.stopPropagation(); show(i, false); });
        });
      }
      function rect(parent, a, b, y, hgt, cls, tip) {
        var x0 = clampX(x(a)), x1 = clampX(x(b));
        var r = el("rect", { x: x0, y: y, width: Math.max(1, x1 - x0), height: hgt, "class": cls }, parent);
        if (tip) title(r, tip);
        return r;
      }
      function draw(kind, it, y, g) {
        if (kind === "state") {
          if (visible(it[0], it[1])) rect(g, it[0], it[1], y + 3, LANE - 6, "s-" + it[2], it[2] + "  " + stamp(it[0]) + " – " + stamp(it[1]));
        } else if (kind === "point" || kind === "action") {
          if (!visible(it[0], it[0])) return;
          var px = x(it[0]), c = el("circle", { cx: px, cy: y + LANE / 2, r: 4, "class": kind === "action" ? "act" : "pt-" + it[1] }, g);
          title(c, stamp(it[0]) + "  " + (kind === "action" ? it[1] + ": " + it[2] : it[2]));
        } else if (kind === "budget") {
          if (!visible(it[0], it[1])) return;
          rect(g, it[0], it[1], y + 3, LANE - 6, "budget", it[4] + " from " + stamp(it[0]) + ", deadline " + stamp(it[2]));
          if (visible(it[3], it[3])) el("line", { x1: x(it[3]), x2: x(it[3]), y1: y + 1, y2: y + LANE - 1, "class": "warn" }, g);
          if (visible(it[2], it[2])) el("line", { x1: x(it[2]), x2: x(it[2]), y1: y + 1, y2: y + LANE - 1, "class": "deadline" }, g);
        } else {
          var deadline = it[3], end = it[1];
          if (!visible(it[0], Math.max(end, deadline))) return;
          var cls = kind === "request" ? "req" : "bar", tip = it[2] + "  " + stamp(it[0]) + " – " + stamp(end);
          if (deadline >= 0 && end > deadline) {
            rect(g, it[0], deadline, y + 5, LANE - 10, cls, tip);
            rect(g, deadline, end, y + 5, LANE - 10, "late", tip + " (past its deadline " + stamp(deadline) + ")");
          } else {
            rect(g, it[0], end, y + 5, LANE - 10, cls, tip);
          }
          // The deadline's tick, once the bar is wide enough to tell it from the bar's start.
          if (deadline >= 0 && visible(deadline, deadline) && x(deadline) - x(it[0]) >= 8) {
            el("line", { x1: x(deadline), x2: x(deadline), y1: y + 2, y2: y + LANE - 2, "class": "deadline" }, g);
          }
        }
      }
      function show(i, jump) {
        var v = D.violations[i];
        selected = i;
        if (jump) {
          var span = Math.max(10000, (view.t1 - view.t0) / 20);
          view.t0 = Math.max(full.t0, v[0] - span / 2); view.t1 = view.t0 + span;
        }
        detail.hidden = false;
        detail.textContent = "";
        var head = document.createElement("b"); head.textContent = v[1] + (v[5] ? " (" + v[5] + ")" : "");
        detail.appendChild(head);
        detail.appendChild(document.createTextNode("  " + stamp(v[0]) + "  " + (v[3] || "")));
        var msg = document.createElement("div"); msg.textContent = v[4]; detail.appendChild(msg);
        render();
      }
      function zoom(factor, at) {
        var span = view.t1 - view.t0, ns = Math.max(5, Math.min(full.t1 - full.t0, span * factor));
        var t0 = at - (at - view.t0) * ns / span;
        view.t0 = Math.max(full.t0, Math.min(t0, full.t1 - ns)); view.t1 = view.t0 + ns;
        render();
      }
      function pan(dt) {
        var span = view.t1 - view.t0;
        view.t0 = Math.max(full.t0, Math.min(view.t0 + dt, full.t1 - span)); view.t1 = view.t0 + span;
        render();
      }
      function timeAt(clientX) {
        var r = svg.getBoundingClientRect(), px = (clientX - r.left) * width() / r.width;
        return view.t0 + (px - LABEL) / (width() - LABEL - 8) * (view.t1 - view.t0);
      }
      svg.addEventListener("wheel", function (e) {
        e.preventDefault();
        zoom(e.deltaY > 0 ? 1.25 : 0.8, Math.max(view.t0, Math.min(view.t1, timeAt(e.clientX))));
      }, { passive: false });
      var drag = null;
      svg.addEventListener("pointerdown", function (e) { drag = { x: e.clientX, t0: view.t0 }; svg.classList.add("dragging"); });
      window.addEventListener("pointerup", function () { drag = null; svg.classList.remove("dragging"); });
      window.addEventListener("pointermove", function (e) {
        if (!drag) return;
        var r = svg.getBoundingClientRect(), dt = (drag.x - e.clientX) * width() / r.width / (width() - LABEL - 8) * (view.t1 - view.t0);
        var span = view.t1 - view.t0;
        view.t0 = Math.max(full.t0, Math.min(drag.t0 + dt, full.t1 - span)); view.t1 = view.t0 + span;
        render();
      });
      window.addEventListener("keydown", function (e) {
        var mid = (view.t0 + view.t1) / 2, span = view.t1 - view.t0;
        if (e.key === "+" || e.key === "=") zoom(0.5, mid);
        else if (e.key === "-" || e.key === "_") zoom(2, mid);
        else if (e.key === "ArrowLeft") pan(-span / 5);
        else if (e.key === "ArrowRight") pan(span / 5);
        else if (e.key === "0") { view.t0 = full.t0; view.t1 = full.t1; render(); }
        else if (e.key === "Escape") { detail.hidden = true; selected = -1; render(); }
      });
      Array.prototype.forEach.call(document.querySelectorAll("#violations li[data-index]"), function (li) {
        var i = Number(li.getAttribute("data-index"));
        li.addEventListener("click", function () { show(i, true); });
        li.addEventListener("keydown", function (e) { if (e.key === "Enter") show(i, true); });
      });
      window.addEventListener("resize", render);
      render();
      document.body.setAttribute("data-rendered", "ok");
    })();
    """
}
