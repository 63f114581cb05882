// The script of a run's page (HTMLReport). It reads the page's JSON (lanes, timeline entries,
// violations, scenario lines, rules) and draws the lanes as SVG sized to the window (redrawn on
// zoom, pan and resize), a tooltip that stays below the time axis, the details of what was clicked
// (the event, its lane and time, its scenario line with the lines around it, the Swift line of an
// imported scenario, a violation's rule and fix), and the timeline as a list (only the rows in
// view exist), linked both ways with the chart. With coverage, source lines in the details are
// marked as run (with their hits) or never run, and a file of the panel's coverage list opens
// its whole source so marked. `#event=N` in the address selects entry N. It
// marks the body `data-rendered="ok"` when done and `data-errors` if a script error happened (the
// browser tests read both). Deterministic: no clock, no random numbers.
// page.js, part 1 of 3 (HTMLReportAssets joins it, page-details.js and page-list.js, in that
// order): it opens the function page-list.js closes and holds the data, the helpers, the sizes,
// the time axis, the drawing and the tooltip. Uses page-details.js's selection (selectedTime)
// and page-list.js's event list and drag state.
(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (e) {
    errors.push(String(e.message));
    document.body.setAttribute("data-errors", errors.join(" | "));
  });
  var D = JSON.parse(document.getElementById("data").textContent);
  function $(id) { return document.getElementById(id); }
  var svg = $("svg"), axis = $("axis"), lanesbox = $("lanesbox"), tip = $("tip");
  var NS = "http://www.w3.org/2000/svg";
  var LABEL = 170, AXIS = 26, VROW = 24, MIN_LANE = 22, MAX_LANE = 64, LIST_MIN = 200, ROW = 24;
  var full = { t0: 0, t1: Math.max(D.end, 1) }, view = { t0: full.t0, t1: full.t1 };
  var laneH = MIN_LANE;

  // ---- The data, unpacked.
  // Lane items: [start, end, label, class, deadline, warning, from entry, to entry, row].
  var lanes = D.lanes;
  // Entries: [time, kind, actor, text, lane, item, location, violation].
  var EV = D.events;
  // Violations: [time, code, severity, location, message, exception, expected, entry, frames].
  var VI = D.violations;
  var KIND_NAMES = { state: "app state", action: "user and system", task: "background task", fetch: "fetch", net: "network",
                     server: "server", violation: "violation", expect: "expectation", log: "print", info: "note" };
  var sel = { ev: -1, lane: -1, item: -1, viol: -1 };

  function el(name, attrs, parent, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function h(tag, cls, text, parent) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  // Text with `code` in backquotes (the rules' wording) as code elements.
  function richText(parent, text) {
    text.split("`").forEach(function (part, k) {
      if (k % 2) h("code", null, part, parent); else parent.appendChild(document.createTextNode(part));
    });
    return parent;
  }
  function pad(n, w) { n = String(n); while (n.length < w) n = "0" + n; return n; }
  function stamp(t) {
    t = Math.round(t);
    var ms = t % 1000, s = Math.floor(t / 1000), d = Math.floor(s / 86400);
    s -= d * 86400;
    return "+" + d + "d" + pad(Math.floor(s / 3600), 2) + ":" + pad(Math.floor(s / 60) % 60, 2) + ":" + pad(s % 60, 2) + "." + pad(ms, 3);
  }
  // As Time.human: 250ms, 30s, 2m05s, 1h30m, 2d3h.
  function human(ms) {
    if (ms < 1000) return ms + "ms";
    if (ms < 60000) return ms % 1000 === 0 ? ms / 1000 + "s" : Math.floor(ms / 1000) + "." + pad(ms % 1000, 3) + "s";
    if (ms < 3600000) return Math.floor(ms / 60000) + "m" + (ms % 60000 >= 1000 ? pad(Math.floor(ms % 60000 / 1000), 2) + "s" : "");
    if (ms < 86400000) return Math.floor(ms / 3600000) + "h" + (ms % 3600000 >= 60000 ? pad(Math.floor(ms % 3600000 / 60000), 2) + "m" : "");
    return Math.floor(ms / 86400000) + "d" + (ms % 86400000 >= 3600000 ? Math.floor(ms % 86400000 / 3600000) + "h" : "");
  }
  function locText(i) {
    if (i < 0) return "";
    var l = D.locs[i], plain = l[1] > 0 ? l[0] + ":" + l[1] : l[0];
    return l[2] ? l[2] + " (" + plain + ")" : plain;
  }
  function violationClass(v) { return v[2] + (v[6] ? " expected" : ""); }

  // ---- Sizes: the lanes share the window's height with the event list.
  function units(lane) { return Math.min(4, 1 + 0.5 * (lane.rows - 1)); }
  var totalUnits = lanes.reduce(function (a, l) { return a + units(l); }, 0);
  function layout() {
    var main = $("main"), list = $("eventlist"), work = $("work");
    var top = work.getBoundingClientRect().top + window.pageYOffset;
    var avail = Math.max(420, window.innerHeight - top - 4);
    var chartMax = Math.max(220, avail - LIST_MIN);
    var chrome = document.querySelector("#chart .hint").offsetHeight + 6;  // the hint line, padding and border
    var room = chartMax - chrome - AXIS - VROW - 8;
    laneH = Math.max(MIN_LANE, Math.min(MAX_LANE, Math.floor(room / Math.max(1, totalUnits))));
    var need = chrome + AXIS + VROW + totalUnits * laneH + 8;
    var mainH = Math.max(Math.min(need, chartMax), 200), listH = Math.max(LIST_MIN, avail - mainH);
    main.style.height = mainH + "px";
    list.style.height = listH + "px";
    if (getComputedStyle(work).gridTemplateColumns.split(" ").length > 1) {
      work.style.gridTemplateRows = mainH + "px " + listH + "px";  // the panel beside both, scrolling within
      $("panel").style.maxHeight = "";
    } else {
      work.style.gridTemplateRows = "";
      $("panel").style.maxHeight = "60vh";
    }
  }
  function width() { return Math.max(480, lanesbox.clientWidth); }
  function x(t) { return LABEL + (t - view.t0) / (view.t1 - view.t0) * (width() - LABEL - 10); }
  function clampX(v) { return Math.max(LABEL, Math.min(width() - 10, v)); }
  function visible(a, b) { return b >= view.t0 && a <= view.t1; }

  // ---- The time axis (its own SVG above the lanes, which scroll under it).
  var STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4, 12e4, 3e5, 6e5, 9e5, 18e5, 36e5, 72e5,
               108e5, 216e5, 432e5, 864e5, 1728e5, 6048e5];
  function tickStep() {
    var span = view.t1 - view.t0, px = width() - LABEL;
    for (var i = 0; i < STEPS.length; i++) if (STEPS[i] / span * px >= 90) return STEPS[i];
    return STEPS[STEPS.length - 1];
  }
  function tickLabel(t, step) {
    var s = stamp(t);
    if (step >= 864e5) return s.slice(0, s.indexOf("d") + 1);
    if (step >= 6e4) return s.slice(0, s.length - 7);
    if (step >= 1e3) return s.slice(0, s.length - 4);
    return s;
  }

  // ---- Drawing.
  var laneTop = [];
  function render() {
    var w = width();
    while (axis.firstChild) axis.removeChild(axis.firstChild);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    laneTop = [];
    var y = VROW;
    lanes.forEach(function (l) { laneTop.push(y); y += units(l) * laneH; });
    var hgt = y + 8;
    axis.style.width = svg.style.width = w + "px";
    axis.setAttribute("viewBox", "0 0 " + w + " " + AXIS);
    axis.setAttribute("height", AXIS);
    svg.setAttribute("viewBox", "0 0 " + w + " " + hgt);
    svg.setAttribute("height", hgt);
    var step = tickStep(), first = Math.ceil(view.t0 / step) * step;
    el("line", { x1: LABEL, x2: w - 10, y1: AXIS - 1, y2: AXIS - 1, "class": "axisline" }, axis);
    lanes.forEach(function (l, i) {
      if (i % 2 === 0) el("rect", { x: 0, y: laneTop[i], width: w, height: units(l) * laneH, "class": "lane-bg" }, svg);
    });
    for (var t = first; t <= view.t1; t += step) {
      var tx = x(t);
      el("line", { x1: tx, x2: tx, y1: 0, y2: hgt, "class": "gridline" }, svg);
      el("line", { x1: tx, x2: tx, y1: AXIS - 6, y2: AXIS, "class": "gridline" }, axis);
      if (tx < w - 70) el("text", { x: tx + 3, y: AXIS - 9, "class": "tick" }, axis, tickLabel(t, step));
    }
    el("text", { x: 6, y: VROW / 2 + 4, "class": "lane-label", "data-help": "Each violation, where it happened: red an error, orange a warning, grey expected by the scenario." }, svg, "violations");
    lanes.forEach(function (lane, li) {
      var g = el("g", { "data-lane": lane.name }, svg), top = laneTop[li], lh = units(lane) * laneH;
      el("text", { x: 6, y: top + Math.min(lh, laneH) / 2 + 4, "class": "lane-label", "data-help": lane.help }, g, lane.name);
      lane.items.forEach(function (it, ii) { draw(lane, li, it, ii, top, lh, g); });
    });
    VI.forEach(function (v, i) {
      if (!visible(v[0], v[0])) return;
      var vx = x(v[0]), cls = "marker " + violationClass(v) + (i === sel.viol ? " selected" : "");
      var g = el("g", { "class": cls, "data-violation": v[1], "data-line": locText(v[3]) || "-", "data-index": i,
                        "aria-label": v[1] + (v[6] ? " (expected)" : "") + " at " + stamp(v[0]) }, svg);
      el("line", { x1: vx, x2: vx, y1: VROW - 4, y2: hgt }, g);
      el("polygon", { points: (vx - 6) + ",3 " + (vx + 6) + ",3 " + vx + "," + (VROW - 5) }, g);
    });
    var t0 = selectedTime();
    if (t0 !== null && visible(t0, t0)) el("line", { x1: x(t0), x2: x(t0), y1: 0, y2: hgt, "class": "cursor" }, svg);
  }
  function rect(parent, a, b, y, hgt, cls, li, ii) {
    var x0 = clampX(x(a)), x1 = clampX(x(b));
    var r = el("rect", { x: x0, y: y, width: Math.max(1.5, x1 - x0), height: hgt, "class": cls }, parent);
    if (li !== undefined) { r.setAttribute("data-item", ii); r.setAttribute("data-li", li); }
    return r;
  }
  function isSelected(li, ii) { return sel.lane === li && sel.item === ii; }
  function draw(lane, li, it, ii, top, lh, g) {
    var kind = lane.kind, s = isSelected(li, ii) ? " selected-item" : "";
    var rowH = lane.rows > 1 ? lh / lane.rows : lh, y = top + it[8] * rowH;
    if (kind === "state") {
      if (visible(it[0], it[1])) rect(g, it[0], it[1], y + 4, rowH - 8, it[3] + s, li, ii);
    } else if (kind === "point") {
      if (!visible(it[0], it[0])) return;
      var c = el("circle", { cx: x(it[0]), cy: y + rowH / 2, r: Math.max(4, Math.min(7, rowH / 5)), "class": it[3] + s }, g);
      c.setAttribute("data-item", ii); c.setAttribute("data-li", li);
    } else if (kind === "budget") {
      if (!visible(it[0], it[1])) return;
      rect(g, it[0], it[1], y + 4, rowH - 8, "budget" + s, li, ii);
      if (visible(it[5], it[5])) el("line", { x1: x(it[5]), x2: x(it[5]), y1: y + 1, y2: y + rowH - 1, "class": "warn" }, g);
      if (visible(it[4], it[4])) el("line", { x1: x(it[4]), x2: x(it[4]), y1: y + 1, y2: y + rowH - 1, "class": "deadline" }, g);
    } else {
      var deadline = it[4], end = it[1];
      if (!visible(it[0], Math.max(end, deadline))) return;
      var bh = Math.max(4, Math.min(rowH - 6, 30)), by = y + (rowH - bh) / 2;
      if (deadline >= 0 && end > deadline) {
        rect(g, it[0], deadline, by, bh, it[3] + s, li, ii);
        rect(g, deadline, end, by, bh, "late" + s, li, ii);
      } else {
        rect(g, it[0], end, by, bh, it[3] + s, li, ii);
      }
      // The deadline's tick, once the bar is wide enough to tell it from the bar's start.
      if (deadline >= 0 && visible(deadline, deadline) && x(deadline) - x(it[0]) >= 8) {
        el("line", { x1: x(deadline), x2: x(deadline), y1: y + 2, y2: y + rowH - 2, "class": "deadline" }, g);
      }
    }
  }

  // ---- What a thing is, in words (the tooltip and the details).
  function itemTimes(lane, it) {
    if (lane.kind === "point") return stamp(it[0]);
    return stamp(it[0]) + " – " + stamp(it[1]) + " (" + human(it[1] - it[0]) + ")";
  }
  function itemTip(li, ii) {
    var lane = lanes[li], it = lane.items[ii], text = it[2] + "\n" + itemTimes(lane, it);
    if (lane.kind === "budget") text += "\nexpiration handlers at " + stamp(it[5]) + ", deadline " + stamp(it[4]);
    else if (it[4] >= 0 && it[1] > it[4]) text += "\npast its deadline " + stamp(it[4]);
    else if (it[4] >= 0) text += "\ndeadline " + stamp(it[4]);
    return text;
  }
  function violationTip(i) {
    var v = VI[i], m = v[4].length > 220 ? v[4].slice(0, 220) + "…" : v[4];
    return v[1] + (v[6] ? " (expected)" : "") + "  " + stamp(v[0]) + (v[3] >= 0 ? "\n" + locText(v[3]) : "") + "\n" + m;
  }

  // ---- The tooltip: next to the pointer, inside the window, never above the axis's bottom.
  function showTip(text, cx, cy) {
    tip.textContent = text;
    tip.hidden = false;
    var r = tip.getBoundingClientRect(), floor = Math.max(0, axis.getBoundingClientRect().bottom + 4);
    var left = cx + 14, top = cy + 16;
    if (left + r.width > window.innerWidth - 4) left = Math.max(4, cx - r.width - 14);
    if (top + r.height > window.innerHeight - 4) top = cy - r.height - 12;
    if (top < floor) top = floor;
    tip.style.left = left + "px";
    tip.style.top = top + "px";
  }
  function hideTip() { tip.hidden = true; }
  function tipFor(target) {
    var m = target.closest ? target.closest(".marker") : null;
    if (m) return violationTip(Number(m.getAttribute("data-index")));
    if (target.hasAttribute && target.hasAttribute("data-item")) return itemTip(Number(target.getAttribute("data-li")), Number(target.getAttribute("data-item")));
    if (target.hasAttribute && target.hasAttribute("data-help")) return target.getAttribute("data-help");
    return null;
  }
  svg.addEventListener("pointermove", function (e) {
    if (drag && drag.moved) { hideTip(); return; }
    var text = tipFor(e.target);
    if (text) showTip(text, e.clientX, e.clientY); else hideTip();
  });
  svg.addEventListener("pointerleave", hideTip);

