// page-list.js, part 3 of 3 of the run page's script (after page.js and page-details.js, inside
// page.js's function, which it closes): the event list (only the rows in view exist), zoom, pan
// and clicks in the chart, keys, and the first drawing. Uses page.js's data, sizes and drawing
// and page-details.js's select and clearSelection.
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
