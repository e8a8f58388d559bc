// The index's episode table: the rows the data scripts handed to
// AMBIBENCH.add, filtered by the select boxes, sorted by a cost column,
// shown a page at a time and exported as JSONL or CSV. Text is set with
// textContent only, so nothing a model wrote is read as HTML.
(function () {
  "use strict";
  var COLS = ["n", "agent", "track", "family", "perturbation", "outcome", "success", "ada",
    "questions", "calls", "tokens", "wall_ms", "error_kind", "instruction", "key"];
  var PAGE = 500;
  var rows = window.AMBIBENCH.rows;
  var selects = document.querySelectorAll("#filters select");
  var tbody = document.querySelector("#records tbody");
  var shown = document.getElementById("shown");
  var more = document.getElementById("more");
  var filtered = rows, limit = PAGE, sortCol = -1, sortDir = 1;

  selects.forEach(function (sel) {
    var col = +sel.dataset.col, seen = {};
    rows.forEach(function (r) { seen[r[col]] = true; });
    var opt = document.createElement("option");
    opt.value = ""; opt.textContent = "all";
    sel.appendChild(opt);
    Object.keys(seen).sort().forEach(function (v) {
      var o = document.createElement("option");
      o.value = v; o.textContent = col === 6 ? (v === "1" ? "success" : "failure") : v;
      sel.appendChild(o);
    });
    sel.addEventListener("change", function () { limit = PAGE; apply(); });
  });
  document.querySelectorAll("#records th.sort").forEach(function (th) {
    th.addEventListener("click", function () {
      var col = +th.dataset.col;
      sortDir = sortCol === col ? -sortDir : -1;
      sortCol = col;
      apply();
    });
  });
  more.addEventListener("click", function () { limit += PAGE; render(); });

  function apply() {
    var want = [];
    selects.forEach(function (sel) { if (sel.value !== "") want.push([+sel.dataset.col, sel.value]); });
    filtered = rows.filter(function (r) {
      for (var i = 0; i < want.length; i++) if (String(r[want[i][0]]) !== want[i][1]) return false;
      return true;
    });
    if (sortCol >= 0) filtered.sort(function (a, b) { return sortDir * (a[sortCol] - b[sortCol]) || a[0] - b[0]; });
    render();
  }

  // page is where episode n's page is (results/view's EpisodePage).
  function page(n) {
    var g = window.AMBIBENCH.group;
    if (!g) return "episodes/" + n + ".html";
    return "episodes/g-" + String(Math.floor(n / g)).padStart(3, "0") + ".html#e" + n;
  }

  function cell(tr, text) {
    var td = document.createElement("td");
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  function render() {
    var frag = document.createDocumentFragment();
    var n = Math.min(limit, filtered.length);
    for (var i = 0; i < n; i++) {
      var r = filtered[i], tr = document.createElement("tr");
      var a = document.createElement("a");
      a.href = page(r[0]);
      a.textContent = r[0];
      cell(tr, "").appendChild(a);
      for (var c = 1; c <= 5; c++) cell(tr, r[c] + (c === 5 && r[12] ? " (" + r[12] + ")" : ""));
      cell(tr, r[6] ? "yes" : "no");
      cell(tr, r[7] ? "yes" : "no");
      for (c = 8; c <= 11; c++) cell(tr, r[c]);
      cell(tr, r[13]).title = r[14];
      frag.appendChild(tr);
    }
    tbody.textContent = "";
    tbody.appendChild(frag);
    shown.textContent = "Showing " + n + " of " + filtered.length + " episodes (" + rows.length + " in the run).";
    more.hidden = n >= filtered.length;
  }

  function objects() {
    return filtered.map(function (r) {
      var o = {};
      COLS.forEach(function (k, i) { o[k] = (i === 6 || i === 7) ? r[i] === 1 : r[i]; });
      return o;
    });
  }

  function download(name, type, text) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
  }

  document.getElementById("export-jsonl").addEventListener("click", function () {
    download("episodes.jsonl", "application/jsonl",
      objects().map(function (o) { return JSON.stringify(o); }).join("\n") + "\n");
  });
  document.getElementById("export-csv").addEventListener("click", function () {
    var quote = function (v) {
      var s = String(v);
      return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
    };
    var lines = [COLS.join(",")];
    objects().forEach(function (o) { lines.push(COLS.map(function (k) { return quote(o[k]); }).join(",")); });
    download("episodes.csv", "text/csv", lines.join("\n") + "\n");
  });
  // A fragment #agent=A&perturbation=P&success=false (a report cell's
  // link, results/view's CellLink) sets the filters it names and clears
  // the others; a fragment without "=" (#episodes) leaves them.
  var NAMES = { agent: 1, track: 2, family: 3, perturbation: 4, outcome: 5, success: 6 };
  function fromHash() {
    var h = location.hash.replace(/^#/, "");
    if (h.indexOf("=") < 0) return false;
    var set = {};
    h.split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i < 0) return;
      var k, v;
      try {
        k = decodeURIComponent(kv.slice(0, i).replace(/\+/g, " "));
        v = decodeURIComponent(kv.slice(i + 1).replace(/\+/g, " "));
      } catch (e) { return; }
      if (!NAMES.hasOwnProperty(k)) return;
      if (k === "success") v = (v === "true" || v === "1") ? "1" : "0";
      set[NAMES[k]] = v;
    });
    selects.forEach(function (sel) {
      var v = set.hasOwnProperty(sel.dataset.col) ? set[sel.dataset.col] : "";
      var known = Array.prototype.some.call(sel.options, function (o) { return o.value === v; });
      if (!known) {
        var o = document.createElement("option");
        o.value = v; o.textContent = sel.dataset.col === "6" ? (v === "1" ? "success" : "failure") : v;
        sel.appendChild(o);
      }
      sel.value = v;
    });
    limit = PAGE;
    return true;
  }
  function follow() {
    var filtering = fromHash();
    apply();
    if (filtering) document.getElementById("episodes").scrollIntoView();
  }
  window.addEventListener("hashchange", follow);
  follow();
})();
