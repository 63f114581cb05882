// The script of the index pages of `luafetch test --html` and `explore --html` (HTMLReport.index):
// the rows come sorted (failures first); this filters them by status (the buttons) and by text
// (the search box, matched against each row's name, status, details and message), says how many
// are shown, and marks the body `data-rendered="ok"` (`data-errors` after a script error).
(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (e) {
    errors.push(String(e.message));
    document.body.setAttribute("data-errors", errors.join(" | "));
  });
  var rows = Array.prototype.slice.call(document.querySelectorAll("#entries tbody tr"));
  var buttons = Array.prototype.slice.call(document.querySelectorAll("#status button"));
  var q = document.getElementById("q"), shown = document.getElementById("shown"), none = document.getElementById("none");
  var status = "all";
  function apply() {
    var text = q.value.trim().toLowerCase(), n = 0;
    rows.forEach(function (r) {
      var ok = (status === "all" || r.getAttribute("data-status") === status) &&
               (!text || r.getAttribute("data-text").indexOf(text) >= 0);
      r.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = n === rows.length ? "" : "showing " + n + " of " + rows.length;
    none.hidden = n > 0 || rows.length === 0;
  }
  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      status = b.getAttribute("data-status");
      buttons.forEach(function (o) { o.setAttribute("aria-pressed", o === b ? "true" : "false"); });
      apply();
    });
  });
  q.addEventListener("input", apply);
  window.addEventListener("keydown", function (e) {
    if (e.key === "/" && e.target !== q) { q.focus(); e.preventDefault(); }
    else if (e.key === "Escape" && e.target === q) { q.value = ""; apply(); }
  });
  apply();
  document.body.setAttribute("data-rendered", "ok");
})();
