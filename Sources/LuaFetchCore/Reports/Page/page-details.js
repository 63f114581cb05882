// page-details.js, part 2 of 3 of the run page's script (HTMLReportAssets joins page.js, this,
// page-list.js, in that order, inside page.js's function): selection (one thing at a time, in the
// chart, the panel and the list), the details panel and coverage. Uses page.js's data, helpers
// and drawing (D, EV, VI, lanes, sel, h, stamp, render) and page-list.js's markRow.
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

