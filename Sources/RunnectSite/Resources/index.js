"use strict";
(function () {
  var data = window.RUNNECT_INDEX || { courses: [] };
  var courses = data.courses || [];
  var PAGE = 48;

  // ---- Search rules: a copy of Sources/RunnectStore/Search/KoreanText.swift --------------------
  var INITIALS = [0x3131, 0x3132, 0x3134, 0x3137, 0x3138, 0x3139, 0x3141, 0x3142, 0x3143, 0x3145,
    0x3146, 0x3147, 0x3148, 0x3149, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E];
  var INITIAL_INDEX = {};
  INITIALS.forEach(function (c, i) { INITIAL_INDEX[c] = i; });
  function isSyllable(c) { return c >= 0xAC00 && c <= 0xD7A3; }
  function isInitialConsonant(c) { return INITIAL_INDEX[c] !== undefined; }
  function initialOf(c) { return isSyllable(c) ? INITIALS[Math.floor((c - 0xAC00) / 588)] : c; }
  function isSpace(c) {
    return (c >= 0x09 && c <= 0x0D) || c === 0x20 || c === 0x85 || c === 0xA0 || c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200A) || c === 0x2028 || c === 0x2029 || c === 0x202F || c === 0x205F || c === 0x3000;
  }
  // NFC, then lowercase scalar by scalar (full mappings, no context, as Swift's lowercased()),
  // conjoining initials U+1100…U+1112 to compatibility jamo, NFC again.
  function normalize(text) {
    var out = [];
    var lowered = "";
    for (var ch of text.normalize("NFC")) lowered += ch.toLowerCase();
    for (var ch2 of lowered) {
      var c = ch2.codePointAt(0);
      out.push(c >= 0x1100 && c <= 0x1112 ? String.fromCodePoint(INITIALS[c - 0x1100]) : ch2);
    }
    return out.join("").normalize("NFC");
  }
  function scalars(text) { return Array.from(text, function (ch) { return ch.codePointAt(0); }); }
  // The keywords: normalised, split on white space, duplicates dropped.
  function words(query) {
    var result = [], seen = {}, current = [];
    function flush() {
      if (current.length) {
        var key = String.fromCodePoint.apply(null, current);
        if (!seen[key]) { seen[key] = true; result.push(current); }
        current = [];
      }
    }
    scalars(normalize(query)).forEach(function (c) { if (isSpace(c)) flush(); else current.push(c); });
    flush();
    return result;
  }
  function scalarMatches(q, t) {
    if (q === t) return true;
    return isSyllable(t) && isInitialConsonant(q) && initialOf(t) === q;
  }
  function contains(hay, needle) {
    if (needle.length > hay.length) return false;
    for (var start = 0; start + needle.length <= hay.length; start++) {
      var k = 0;
      while (k < needle.length && scalarMatches(needle[k], hay[start + k])) k++;
      if (k === needle.length) return true;
    }
    return false;
  }
  courses.forEach(function (c) { c._key = scalars(c.search || ""); c._created = Date.parse(c.created_at) || 0; });

  // ---- Orders, as CourseSort ----------------------------------------------------------------------
  function newest(a, b) { return (b._created - a._created) || (b.id - a.id); }
  var ORDERS = {
    date: newest,
    scrap: function (a, b) { return (b.scrap_count - a.scrap_count) || newest(a, b); },
    distance: function (a, b) { return (a.distance_m - b.distance_m) || (a.id - b.id); }
  };

  // ---- Formatting, as RunnerFormat -----------------------------------------------------------------
  function km(m) { return (m / 1000).toFixed(2) + " km"; }
  function pace(s) {
    if (s === null || s === undefined || !isFinite(s) || s < 0) return null;
    var whole = Math.round(s);
    return Math.floor(whole / 60) + "'" + String(whole % 60).padStart(2, "0") + "\"/km";
  }
  function day(iso) { return (iso || "").slice(0, 10); }

  // ---- DOM (textContent only) ----------------------------------------------------------------------
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function card(c) {
    var li = el("li", "card");
    li.setAttribute("data-id", String(c.id));
    var preview = el("a", "preview");
    preview.href = c.geojson;
    preview.title = c.title;
    var img = el("img");
    img.src = c.preview;
    img.alt = c.title;
    img.loading = "lazy";
    img.decoding = "async";
    preview.appendChild(img);
    li.appendChild(preview);
    var body = el("div", "body");
    body.appendChild(el("h2", "title", c.title));
    var departure = el("p", "departure");
    if (c.departure_name) {
      departure.appendChild(el("b", null, c.departure_name));
      departure.appendChild(document.createTextNode(c.address ? " · " + c.address : ""));
    } else {
      departure.textContent = c.address || "출발지 정보 없음";
    }
    departure.title = departure.textContent;
    body.appendChild(departure);
    var stats = el("ul", "stats");
    stats.appendChild(el("li", null, km(c.distance_m)));
    var p = pace(c.avg_pace_s_per_km);
    if (p) stats.appendChild(el("li", null, p));
    var scraps = el("li", "scraps", "★ " + c.scrap_count);
    scraps.title = "스크랩 " + c.scrap_count;
    stats.appendChild(scraps);
    body.appendChild(stats);
    var meta = el("div", "meta");
    var who = el("span", c.is_uploaded ? null : "private", (c.is_uploaded ? "" : "비공개 · ") + c.owner + " · " + day(c.created_at));
    meta.appendChild(who);
    // The course as files: GeoJSON for a map; GPX and a FIT course file for a watch, downloaded.
    var links = el("div", "links");
    var geojson = el("a", null, "GeoJSON");
    geojson.href = c.geojson;
    links.appendChild(geojson);
    [["GPX", c.gpx], ["FIT", c.fit]].forEach(function (pair) {
      if (!pair[1]) return;
      var download = el("a", "download", pair[0]);
      download.href = pair[1];
      download.setAttribute("download", "");
      download.title = pair[0] + " 내려받기 (워치로 보내기)";
      links.appendChild(download);
    });
    meta.appendChild(links);
    body.appendChild(meta);
    li.appendChild(body);
    return li;
  }

  var input = document.getElementById("q");
  var grid = document.getElementById("grid");
  var status = document.getElementById("status");
  var empty = document.getElementById("empty");
  var more = document.getElementById("more");
  var buttons = Array.prototype.slice.call(document.querySelectorAll(".sort button"));
  var state = { q: "", sort: "date", shown: PAGE, results: [] };
  document.getElementById("subtitle").textContent = "코스 둘러보기 · " + courses.length + "개";

  function render() {
    grid.textContent = "";
    var fragment = document.createDocumentFragment();
    state.results.slice(0, state.shown).forEach(function (c) { fragment.appendChild(card(c)); });
    grid.appendChild(fragment);
    more.hidden = state.results.length <= state.shown;
    var n = state.results.length;
    status.textContent = state.q.trim() ? "“" + state.q.trim() + "” 검색 결과 " + n + "개" : "코스 " + n + "개";
    empty.hidden = n > 0;
    empty.textContent = courses.length === 0 ? "공유된 코스가 없습니다." : "검색 결과가 없습니다. 다른 검색어를 입력해 보세요.";
  }

  // The one handler: typing, the sort buttons and the URL fragment all end here.
  function apply(q, sort, updateHash) {
    state.q = q;
    state.sort = ORDERS[sort] ? sort : "date";
    state.shown = PAGE;
    if (input.value !== q) input.value = q;
    buttons.forEach(function (b) { b.setAttribute("aria-pressed", String(b.getAttribute("data-sort") === state.sort)); });
    var ws = words(q);
    state.results = courses.filter(function (c) {
      return ws.every(function (w) { return contains(c._key, w); });
    }).sort(ORDERS[state.sort]);
    render();
    if (updateHash) {
      var params = new URLSearchParams();
      if (q) params.set("q", q);
      if (state.sort !== "date") params.set("sort", state.sort);
      var hash = params.toString();
      try { history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search); } catch (e) { }
    }
  }
  function fromHash() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    apply(params.get("q") || "", params.get("sort") || "date", false);
  }
  input.addEventListener("input", function () { apply(input.value, state.sort, true); });
  buttons.forEach(function (b) {
    b.addEventListener("click", function () { apply(input.value, b.getAttribute("data-sort"), true); });
  });
  more.addEventListener("click", function () { state.shown += PAGE; render(); });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
