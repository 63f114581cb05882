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

  // ---- Selection: one thing at a time, shown in the chart, the panel and the list.
  function selectedTime() {
    if (sel.ev >= 0) return EV[sel.ev][0];
    if (sel.viol >= 0) return VI[sel.viol][0];
    if (sel.lane >= 0) return lanes[sel.lane].items[sel.item][0];
    return null;
  }
  // `what`: {ev}, {viol} or {lane, item}; `from`: "chart", "list", "key" or "address".
  function select(what, from) {
    sel = { ev: -1, lane: -1, item: -1, viol: -1 };
    if (what.viol !== undefined) { sel.viol = what.viol; sel.ev = VI[what.viol][7]; }
    else if (what.ev !== undefined) { sel.ev = what.ev; sel.viol = EV[what.ev][7]; }
    if (what.lane !== undefined) { sel.lane = what.lane; sel.item = what.item; if (sel.ev < 0) sel.ev = firstEntry(what.lane, what.item); }
    else if (sel.ev >= 0 && EV[sel.ev][4] >= 0) { sel.lane = EV[sel.ev][4]; sel.item = EV[sel.ev][5]; }
    var t = selectedTime();
    if (from !== "chart" && t !== null && !visible(t, t)) {
      var span = view.t1 - view.t0;
      view.t0 = Math.max(full.t0, Math.min(t - span / 2, full.t1 - span)); view.t1 = view.t0 + span;
    }
    render();
    showDetail();
    markRow(from !== "list");
    if (from !== "address" && sel.ev >= 0) {
      try { history.replaceState(null, "", "#event=" + sel.ev); } catch (err) { /* a file: address may refuse it */ }
    }
  }
  function firstEntry(li, ii) {
    var it = lanes[li].items[ii];
    return it[6] >= 0 ? it[6] : it[7];
  }
  function clearSelection() {
    sel = { ev: -1, lane: -1, item: -1, viol: -1 };
    $("detail").hidden = true;
    $("overview").hidden = false;
    render();
    markRow(false);
  }

  // ---- The details panel.
  function fact(dl, name, value, cls) {
    if (value === null || value === undefined || value === "") return;
    h("dt", null, name, dl);
    h("dd", cls || null, value, dl);
  }
  function sourceBlock(parent, li) {
    var l = D.locs[li], blocks = D.src[l[0]], line = l[1];
    if (l[2]) { h("h4", null, "Swift line", parent); h("div", "swift", l[2], parent); }
    if (l[3] && swiftBlock(parent, D.src[l[3]], l[4])) {
      h("div", "srcname", "scenario line " + (l[1] > 0 ? l[0] + ":" + l[1] : l[0]), parent);
      return;
    }
    h("h4", null, "scenario line", parent);
    h("div", "srcname", l[1] > 0 ? l[0] + ":" + l[1] : l[0], parent);
    var block = null;
    (blocks || []).forEach(function (b) { if (line >= b[0] && line < b[0] + b[1].length) block = b; });
    if (!block) { h("div", "meta", "(the file's text is not in the page)", parent); return; }
    var pre = h("pre", "src", null, parent), cov = coverageOf(l[0]);
    block[1].forEach(function (text, k) {
      var n = block[0] + k;
      if (n < line - 3 || n > line + 3) return;
      var s = h("span", n === line ? "hit" : null, null, pre);
      markCoverage(s, cov, n);
      h("i", null, String(n), s);
      s.appendChild(document.createTextNode(text));
    });
  }

  // An imported scenario's Swift source around its line (D.src["swift:PATH"]), when the page has it.
  function swiftBlock(parent, blocks, line) {
    var block = null;
    (blocks || []).forEach(function (b) { if (line >= b[0] && line < b[0] + b[1].length) block = b; });
    if (!block) return false;
    var pre = h("pre", "src swiftsrc", null, parent);
    block[1].forEach(function (text, k) {
      var n = block[0] + k;
      if (n < line - 3 || n > line + 3) return;
      var s = h("span", n === line ? "hit" : null, null, pre);
      h("i", null, String(n), s);
      s.appendChild(document.createTextNode(text));
    });
    return true;
  }

  // ---- Coverage: which lines of code ran (D.cov: by file, [line, hits] of every line that holds code).
  var COV = {};
  Object.keys(D.cov || {}).forEach(function (f) {
    var m = {};
    D.cov[f].lines.forEach(function (p) { m[p[0]] = p[1]; });
    COV[f] = m;
  });
  function coverageOf(file) { return COV[file] || null; }
  function markCoverage(span, cov, n) {
    if (!cov || !(n in cov)) return;
    span.classList.add(cov[n] > 0 ? "cov-ran" : "cov-never");
    span.setAttribute("data-hits", String(cov[n]));
    span.title = cov[n] > 0 ? "ran " + cov[n] + " time" + (cov[n] === 1 ? "" : "s") : "never ran";
  }
  function showCoverage(file) {
    var box = $("detail"), c = D.cov[file];
    box.textContent = "";
    $("overview").hidden = true;
    box.hidden = false;
    var close = h("button", "close", "×", box);
    close.setAttribute("aria-label", "close the source (Esc)");
    close.addEventListener("click", clearSelection);
    h("button", "back", "← coverage", box).addEventListener("click", clearSelection);
    h("span", "badge kind", "coverage", h("div", null, null, box));
    h("h3", "text", file, box);
    var ran = c.lines.filter(function (p) { return p[1] > 0; }).length;
    h("div", "meta", ran + " of " + c.lines.length + " lines of code ran; never-run lines are red", box);
    if (c.never.length) {
      h("h4", null, "functions that never ran", box);
      var ul = h("ul", "never", null, box);
      c.never.forEach(function (g) { h("li", null, file + ":" + g[0] + "  " + g[1], ul); });
    }
    var cov = COV[file];
    if (!c.text) {
      h("div", "meta", "(the file's text is not in the page: " + (c.lines.length - ran) + " lines never ran)", box);
      return;
    }
    var pre = h("pre", "src cov", null, box);
    pre.setAttribute("data-file", file);
    c.text.forEach(function (text, k) {
      var s = h("span", null, null, pre);
      markCoverage(s, cov, k + 1);
      h("i", null, String(k + 1), s);
      h("b", "hits", cov && (k + 1) in cov ? (cov[k + 1] > 0 ? "×" + cov[k + 1] : "0") : "", s);
      s.appendChild(document.createTextNode(text));
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("button.covfile"), function (b) {
    b.addEventListener("click", function () {
      sel = { ev: -1, lane: -1, item: -1, viol: -1 };
      render();
      showCoverage(b.getAttribute("data-file"));
    });
  });
  function showDetail() {
    var box = $("detail");
    box.textContent = "";
    if (sel.ev < 0 && sel.viol < 0 && sel.lane < 0) { clearSelection(); return; }
    $("overview").hidden = true;
    box.hidden = false;
    var close = h("button", "close", "×", box);
    close.setAttribute("aria-label", "close the details (Esc)");
    close.addEventListener("click", clearSelection);
    if (VI.length) {
      var back = h("button", "back", "← all violations (" + VI.length + ")", box);
      back.addEventListener("click", clearSelection);
    }
    var e = sel.ev >= 0 ? EV[sel.ev] : null, v = sel.viol >= 0 ? VI[sel.viol] : null;
    var lane = sel.lane >= 0 ? lanes[sel.lane] : null, it = lane ? lane.items[sel.item] : null;
    var head = h("div", null, null, box), loc = -1;
    if (v) {
      h("span", "badge kind", "violation", head);
      head.appendChild(document.createTextNode(" "));
      h("span", "badge " + (v[6] ? "kind" : v[2]), v[2], head);
      if (v[6]) { head.appendChild(document.createTextNode(" ")); h("span", "badge expected", "expected", head); }
      h("h3", null, v[1], box);
      h("div", "text", v[4], box);
      loc = v[3];
    } else if (e) {
      h("span", "badge kind", KIND_NAMES[e[1]] || e[1], head);
      h("h3", "text", e[3], box);
      loc = e[6];
    } else {
      h("span", "badge kind", lane.name, head);
      h("h3", "text", it[2], box);
    }
    var dl = h("dl", null, null, box);
    fact(dl, "time", stamp(v ? v[0] : e ? e[0] : it[0]));
    fact(dl, "lane", v ? "violations" + (lane ? " · " + lane.name : "") : lane ? lane.name : "(none: not drawn)");
    if (e) fact(dl, "from", e[2]);
    if (it && lane.kind !== "point") {
      fact(dl, lane.kind === "state" ? "state" : "item", it[2]);
      fact(dl, "span", itemTimes(lane, it));
      if (lane.kind === "budget") fact(dl, "deadline", stamp(it[4]) + " (expiration handlers at " + stamp(it[5]) + ")");
      else if (it[4] >= 0) fact(dl, "deadline", stamp(it[4]) + (it[1] > it[4] ? ": past it by " + human(it[1] - it[4]) : ""));
    }
    if (v && v[5]) fact(dl, "exception", v[5]);
    if (v && v[6]) h("div", "note", "Expected: an expect.violation in the scenario names " + v[1] + ", so it does not fail the run.", box);
    if (loc >= 0) sourceBlock(box, loc);
    else if (e || v) { h("h4", null, "scenario line", box); h("div", "meta", "none: no scenario code was running (iOS or the simulated world did this on its own)", box); }
    if (v) {
      var rule = D.rules[v[1]], r = h("div", "rule", null, box);
      if (rule) {
        h("h4", null, "rule", r); richText(h("p", null, null, r), rule[0]);
        h("h4", null, "how to fix it", r); richText(h("p", null, null, r), rule[1]);
      }
      if (v[8]) { h("h4", null, "stack", box); h("pre", "src", v[8].join("\n"), box).style.padding = "6px 8px"; }
    }
  }

  // ---- The event list: rows for the entries that pass the filter; only those in view exist.
  var list = $("events"), rows = $("evrows"), shown = [], posOf = new Int32Array(EV.length);
  function entryClass(e) {
    var c = "row k-" + e[1];
    if (e[7] >= 0) c += " " + violationClass(VI[e[7]]);
    if (e[1] === "expect") c += e[3].charAt(0) === "✓" ? " pass" : " fail";
    return c;
  }
  function applyFilter() {
    var q = $("evfilter").value.toLowerCase(), kind = $("evkind").value;
    shown = [];
    posOf.fill(-1);
    for (var i = 0; i < EV.length; i++) {
      var e = EV[i];
      if (kind && e[1] !== kind) continue;
      if (q) {
        var lane = e[4] >= 0 ? lanes[e[4]].name : "";
        var hay = (e[3] + " " + e[2] + " " + lane + " " + locText(e[6]) + (e[7] >= 0 ? " " + VI[e[7]][1] : "")).toLowerCase();
        if (hay.indexOf(q) < 0) continue;
      }
      posOf[i] = shown.length;
      shown.push(i);
    }
    rows.style.height = shown.length * ROW + "px";
    $("evcount").textContent = shown.length === EV.length ? "(" + EV.length + ")" : "(" + shown.length + " of " + EV.length + ")";
    drawRows();
  }
  function drawRows() {
    var top = list.scrollTop, hgt = list.clientHeight || 300;
    var a = Math.max(0, Math.floor(top / ROW) - 10), b = Math.min(shown.length, Math.ceil((top + hgt) / ROW) + 10);
    rows.textContent = "";
    for (var k = a; k < b; k++) {
      var i = shown[k], e = EV[i], r = h("div", entryClass(e) + (i === sel.ev ? " selected" : ""), null, rows);
      r.style.top = k * ROW + "px";
      r.id = "ev-" + i;
      r.setAttribute("role", "option");
      r.setAttribute("data-event", i);
      r.setAttribute("aria-selected", i === sel.ev ? "true" : "false");
      h("span", "t", stamp(e[0]), r);
      h("span", "lane", e[7] >= 0 ? "violations" : e[4] >= 0 ? lanes[e[4]].name : e[2], r);
      var ev = h("span", "ev", null, r);
      if (e[7] >= 0) {
        var v = VI[e[7]];
        h("b", null, v[1] + " ", ev);
        if (v[6]) h("span", "badge expected", "expected", ev);
      }
      ev.appendChild(document.createTextNode(e[3]));
      ev.title = e[3];
      h("span", "loc", locText(e[6]), r).title = locText(e[6]);
    }
    list.setAttribute("aria-activedescendant", sel.ev >= 0 && $("ev-" + sel.ev) ? "ev-" + sel.ev : "");
  }
  // Marks the selected entry's row; `scroll`: bring it into view.
  function markRow(scroll) {
    if (scroll && sel.ev >= 0 && posOf[sel.ev] >= 0) {
      var y = posOf[sel.ev] * ROW, hgt = list.clientHeight || 300;
      if (y < list.scrollTop || y + ROW > list.scrollTop + hgt) list.scrollTop = Math.max(0, y - hgt / 2 + ROW / 2);
    }
    drawRows();
  }
  list.addEventListener("scroll", drawRows);
  rows.addEventListener("click", function (e) {
    var r = e.target.closest(".row");
    if (r) select({ ev: Number(r.getAttribute("data-event")) }, "list");
  });
  $("evfilter").addEventListener("input", applyFilter);
  $("evkind").addEventListener("change", applyFilter);
  (function kinds() {
    var seen = {}, select = $("evkind");
    EV.forEach(function (e) { seen[e[1]] = (seen[e[1]] || 0) + 1; });
    Object.keys(KIND_NAMES).forEach(function (k) {
      if (!seen[k]) return;
      var o = document.createElement("option");
      o.value = k;
      o.textContent = KIND_NAMES[k] + " (" + seen[k] + ")";
      select.appendChild(o);
    });
  })();
  function step(delta) {
    if (!shown.length) return;
    var k = sel.ev >= 0 && posOf[sel.ev] >= 0 ? posOf[sel.ev] + delta : delta > 0 ? 0 : shown.length - 1;
    k = Math.max(0, Math.min(shown.length - 1, k));
    select({ ev: shown[k] }, "key");
  }

  // ---- Zoom, pan and clicks in the chart.
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
    return view.t0 + (px - LABEL) / (width() - LABEL - 10) * (view.t1 - view.t0);
  }
  svg.addEventListener("wheel", function (e) {
    e.preventDefault();
    zoom(e.deltaY > 0 ? 1.25 : 0.8, Math.max(view.t0, Math.min(view.t1, timeAt(e.clientX))));
  }, { passive: false });
  var drag = null;
  svg.addEventListener("pointerdown", function (e) { drag = { x: e.clientX, t0: view.t0, moved: false }; });
  window.addEventListener("pointerup", function () { if (drag) svg.classList.remove("dragging"); setTimeout(function () { drag = null; }, 0); });
  window.addEventListener("pointermove", function (e) {
    if (!drag || (!drag.moved && Math.abs(e.clientX - drag.x) < 4)) return;
    drag.moved = true;
    svg.classList.add("dragging");
    var r = svg.getBoundingClientRect(), dt = (drag.x - e.clientX) * width() / r.width / (width() - LABEL - 10) * (view.t1 - view.t0);
    var span = view.t1 - view.t0;
    view.t0 = Math.max(full.t0, Math.min(drag.t0 + dt, full.t1 - span)); view.t1 = view.t0 + span;
    render();
  });
  svg.addEventListener("click", function (e) {
    if (drag && drag.moved) return;
    var m = e.target.closest(".marker");
    if (m) { select({ viol: Number(m.getAttribute("data-index")) }, "chart"); return; }
    if (e.target.hasAttribute("data-item")) {
      select({ lane: Number(e.target.getAttribute("data-li")), item: Number(e.target.getAttribute("data-item")) }, "chart");
    }
  });
  window.addEventListener("keydown", function (e) {
    var tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      if (e.key === "Escape") e.target.blur();
      return;
    }
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var mid = (view.t0 + view.t1) / 2, span = view.t1 - view.t0, done = true;
    if (e.key === "+" || e.key === "=") zoom(0.5, selectedTime() !== null && visible(selectedTime(), selectedTime()) ? selectedTime() : mid);
    else if (e.key === "-" || e.key === "_") zoom(2, mid);
    else if (e.key === "ArrowLeft") pan(-span / 5);
    else if (e.key === "ArrowRight") pan(span / 5);
    else if (e.key === "ArrowDown" || e.key === "j") step(1);
    else if (e.key === "ArrowUp" || e.key === "k") step(-1);
    else if (e.key === "0") { view.t0 = full.t0; view.t1 = full.t1; render(); }
    else if (e.key === "Escape") clearSelection();
    else if (e.key === "/") $("evfilter").focus();
    else if (e.key === "Enter" && e.target.hasAttribute && e.target.hasAttribute("data-index") && e.target.tagName === "LI") {
      select({ viol: Number(e.target.getAttribute("data-index")) }, "list");
    } else done = false;
    if (done) e.preventDefault();
  });
  Array.prototype.forEach.call(document.querySelectorAll("#violations li[data-index]"), function (li) {
    li.addEventListener("click", function () { select({ viol: Number(li.getAttribute("data-index")) }, "list-violation"); });
  });
  var pending = false;
  window.addEventListener("resize", function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; layout(); render(); drawRows(); });
  });

  layout();
  render();
  applyFilter();
  var m = /^#(event|violation)=(\d+)$/.exec(location.hash);
  if (m) {
    var n = Number(m[2]);
    if (m[1] === "event" && n < EV.length) select({ ev: n }, "address");
    else if (m[1] === "violation" && n < VI.length) select({ viol: n }, "address");
  }
  document.body.setAttribute("data-rendered", "ok");
})();
