// steadysweep page behaviour: hover values on the charts, sortable and
// filterable tables, details opened for printing. Every number shown is
// already in the page; this script only shows, hides and orders it.
(function () {
  "use strict";
  var doc = document, root = doc.documentElement;
  var tip = doc.getElementById("tip");

  // Charts: the hit rectangle of a super-pass carries its values in a
  // <title>; the script moves them to a tooltip and highlights that
  // super-pass's points in every chart of the page.
  function showSP(sp, text, x, y) {
    doc.querySelectorAll(".pt.on").forEach(function (p) { p.classList.remove("on"); });
    doc.querySelectorAll('.pt[data-sp="' + sp + '"]').forEach(function (p) { p.classList.add("on"); });
    doc.querySelectorAll("svg.plot").forEach(function (svg) {
      var hit = svg.querySelector('.hit[data-sp="' + sp + '"]'), cross = svg.querySelector(".cross");
      if (!hit || !cross) { return; }
      var cx = parseFloat(hit.getAttribute("x")) + parseFloat(hit.getAttribute("width")) / 2;
      cross.setAttribute("x1", cx); cross.setAttribute("x2", cx); cross.setAttribute("visibility", "visible");
    });
    if (tip && text) {
      tip.textContent = text; tip.hidden = false;
      var w = tip.offsetWidth, h = tip.offsetHeight;
      var left = Math.min(x + 14, window.innerWidth - w - 8), top = y + 14;
      if (top + h > window.innerHeight - 8) { top = y - h - 14; }
      tip.style.left = Math.max(4, left) + "px"; tip.style.top = Math.max(4, top) + "px";
    }
  }
  function hideSP() {
    if (tip) { tip.hidden = true; }
    doc.querySelectorAll(".pt.on").forEach(function (p) { p.classList.remove("on"); });
    doc.querySelectorAll(".cross").forEach(function (c) { c.setAttribute("visibility", "hidden"); });
  }
  doc.querySelectorAll(".hit").forEach(function (hit) {
    var t = hit.querySelector("title");
    if (t) { hit.setAttribute("data-tip", t.textContent); hit.setAttribute("aria-label", t.textContent); t.remove(); }
    var sp = hit.getAttribute("data-sp"), text = hit.getAttribute("data-tip") || "";
    hit.addEventListener("mousemove", function (e) { showSP(sp, text, e.clientX, e.clientY); });
    hit.addEventListener("mouseleave", hideSP);
    hit.addEventListener("focus", function () {
      var r = hit.getBoundingClientRect(); showSP(sp, text, r.left + r.width / 2, r.top);
    });
    hit.addEventListener("blur", hideSP);
    hit.addEventListener("touchstart", function (e) {
      var p = e.touches[0]; showSP(sp, text, p.clientX, p.clientY);
    }, { passive: true });
  });

  // Sortable tables: click a header; a cell's data-v (a number) sorts
  // before its text.
  function key(td) {
    if (!td) { return ""; }
    var v = td.getAttribute("data-v");
    if (v !== null && v !== "" && !isNaN(Number(v))) { return Number(v); }
    return v !== null ? v : td.textContent.trim();
  }
  doc.querySelectorAll("table.sortable").forEach(function (table) {
    var ths = table.querySelectorAll("thead th");
    ths.forEach(function (th, col) {
      th.tabIndex = 0;
      function sort() {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        ths.forEach(function (o) { o.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = key(a.cells[col]), y = key(b.cells[col]);
          var nx = typeof x === "number", ny = typeof y === "number";
          var c = nx && ny ? x - y : nx ? -1 : ny ? 1 : String(x).localeCompare(String(y));
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
    });
  });

  // Filters: each select[data-filter=NAME] keeps the rows whose
  // data-NAME equals its value ("" keeps all); input[data-search] keeps
  // the rows whose text contains it.
  var filters = doc.querySelectorAll("[data-filter],[data-search]");
  function applyFilters() {
    var table = doc.querySelector("table.filterable");
    if (!table) { return; }
    var shown = 0, rows = table.tBodies[0].rows;
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i], ok = true;
      filters.forEach(function (f) {
        var v = f.value;
        if (!v) { return; }
        if (f.hasAttribute("data-search")) {
          if (row.textContent.toLowerCase().indexOf(v.toLowerCase()) < 0) { ok = false; }
        } else if (row.getAttribute("data-" + f.getAttribute("data-filter")) !== v) { ok = false; }
      });
      row.hidden = !ok;
      if (ok) { shown++; }
    }
    var c = doc.getElementById("shown");
    if (c) { c.textContent = String(shown); }
  }
  filters.forEach(function (f) { f.addEventListener("input", applyFilters); f.addEventListener("change", applyFilters); });

  // Printing shows everything.
  window.addEventListener("beforeprint", function () {
    doc.querySelectorAll("details").forEach(function (d) { d.setAttribute("data-was", d.open ? "1" : ""); d.open = true; });
  });
  window.addEventListener("afterprint", function () {
    doc.querySelectorAll("details[data-was]").forEach(function (d) { d.open = d.getAttribute("data-was") === "1"; d.removeAttribute("data-was"); });
  });
  root.setAttribute("data-ready", "1");
})();
