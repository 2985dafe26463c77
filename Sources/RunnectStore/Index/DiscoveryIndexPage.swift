/// The discovery page, `index.html`: one static file with its CSS and script inline, no network.
///
/// The page reads its courses from `courses.js` (`window.RUNNECT_INDEX = {…}`), loaded with a
/// `<script src>`, which works from `file://` as well as from any static server (a `fetch` of
/// `courses.json` does not work from `file://` in Chromium). It builds every card with
/// `textContent` and DOM properties, never `innerHTML`, so course text is always text.
///
/// Search follows `runnect search` rule for rule (``KoreanText``): the query is normalised as
/// ``KoreanText/normalize(_:)`` does (NFC, scalar-wise lowercase, conjoining initials to
/// compatibility jamo, NFC), split on the same white space, every word must occur in the
/// course's search key (its normalised title, description and departure parts, precomputed by
/// the exporter with the Swift code), where an initial consonant in the query matches a syllable
/// starting with it. The query and the sort live in the URL's fragment (`#q=ㅎㄱ&sort=scrap`) and
/// go through the same handler as typing.
enum DiscoveryIndexPage {
    /// The file the page loads its data from.
    static let dataScript = "courses.js"
    /// The global the data script sets.
    static let dataGlobal = "RUNNECT_INDEX"

    /// The page's HTML. It does not depend on the courses, so re-exports leave it unchanged.
    static let html: String = #"""
<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="runnect index">
<title>Runnect · 코스 둘러보기</title>
<style>
:root {
  --accent: #5b3cf0; --accent-soft: #efebff; --ink: #17161c; --muted: #6b6878; --line: #e6e4ee;
  --bg: #f6f5fa; --card: #ffffff; --radius: 14px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Apple SD Gothic Neo", "Noto Sans KR",
    "Noto Sans CJK KR", "Malgun Gothic", "NanumGothic", "Nanum Gothic", "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: var(--bg); line-height: 1.45;
  -webkit-text-size-adjust: 100%; word-break: keep-all; overflow-wrap: anywhere;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; }
header { background: var(--card); border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 2; }
.bar { max-width: 1180px; margin: 0 auto; padding: 14px 20px; display: flex; flex-wrap: wrap; gap: 12px 20px; align-items: center; }
.brand { display: flex; align-items: baseline; gap: 10px; margin-right: auto; }
.brand h1 { margin: 0; font-size: 22px; letter-spacing: -0.02em; color: var(--accent); }
.brand span { color: var(--muted); font-size: 14px; }
.controls { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; flex: 1 1 420px; justify-content: flex-end; }
.search { position: relative; flex: 1 1 240px; max-width: 420px; }
.search input { width: 100%; font: inherit; font-size: 16px; padding: 10px 14px 10px 38px; border: 1px solid var(--line);
  border-radius: 999px; background: var(--bg); color: var(--ink); outline: none; }
.search input:focus { border-color: var(--accent); background: var(--card); box-shadow: 0 0 0 3px var(--accent-soft); }
.search svg { position: absolute; left: 13px; top: 50%; transform: translateY(-50%); width: 16px; height: 16px; color: var(--muted); }
.sort { display: inline-flex; background: var(--bg); border: 1px solid var(--line); border-radius: 999px; padding: 3px; }
.sort button { font: inherit; font-size: 14px; border: 0; background: none; color: var(--muted); padding: 6px 12px;
  border-radius: 999px; cursor: pointer; white-space: nowrap; }
.sort button[aria-pressed="true"] { background: var(--card); color: var(--accent); font-weight: 600; box-shadow: 0 1px 3px rgba(20, 10, 60, .12); }
main { max-width: 1180px; margin: 0 auto; padding: 18px 20px 40px; }
.status { color: var(--muted); font-size: 14px; margin: 0 0 14px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 18px; list-style: none; margin: 0; padding: 0; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); overflow: hidden;
  display: flex; flex-direction: column; transition: box-shadow .15s, transform .15s; }
.card:hover { box-shadow: 0 8px 24px rgba(30, 20, 80, .10); transform: translateY(-2px); }
.preview { display: block; aspect-ratio: 4 / 3; background: linear-gradient(160deg, #fbfaff, #eeebfa); border-bottom: 1px solid var(--line); }
.preview img { width: 100%; height: 100%; object-fit: cover; display: block; }
.body { padding: 12px 14px 14px; display: flex; flex-direction: column; gap: 6px; flex: 1; }
.title { margin: 0; font-size: 16px; font-weight: 700; line-height: 1.35; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.departure { margin: 0; font-size: 13px; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.departure b { color: var(--ink); font-weight: 600; }
.stats { display: flex; flex-wrap: wrap; gap: 6px; margin: 2px 0 0; padding: 0; list-style: none; font-size: 13px; }
.stats li { background: var(--bg); border-radius: 8px; padding: 3px 8px; font-variant-numeric: tabular-nums; }
.stats .scraps { color: var(--accent); background: var(--accent-soft); font-weight: 600; }
.meta { margin-top: auto; padding-top: 6px; display: flex; justify-content: space-between; gap: 8px; font-size: 12px; color: var(--muted); }
.meta span { min-width: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.meta a { color: var(--accent); text-decoration: none; flex: none; white-space: nowrap; }
.meta a:hover { text-decoration: underline; }
.private { color: #a15c00; }
.empty { text-align: center; color: var(--muted); padding: 60px 0; }
.more { display: block; margin: 24px auto 0; font: inherit; padding: 10px 22px; border-radius: 999px; border: 1px solid var(--line);
  background: var(--card); color: var(--accent); font-weight: 600; cursor: pointer; }
@media (max-width: 600px) {
  .bar { padding: 12px 14px; }
  .controls { flex-basis: 100%; justify-content: stretch; }
  .search { max-width: none; flex-basis: 100%; }
  .sort { width: 100%; } .sort button { flex: 1; }
  main { padding: 14px 14px 32px; }
  .grid { grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 12px; }
  .body { padding: 10px 11px 12px; } .title { font-size: 15px; }
}
</style>
</head>
<body>
<header>
  <div class="bar">
    <div class="brand"><h1>Runnect</h1><span id="subtitle">코스 둘러보기</span></div>
    <div class="controls">
      <label class="search">
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.4" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="m20 20-3.5-3.5"/></svg>
        <input id="q" type="search" placeholder="코스 검색 (예: 한강, ㅎㄱ, Namsan)" aria-label="코스 검색" autocomplete="off" spellcheck="false">
      </label>
      <div class="sort" role="group" aria-label="정렬">
        <button type="button" data-sort="date">최신순</button>
        <button type="button" data-sort="scrap">스크랩순</button>
        <button type="button" data-sort="distance">거리순</button>
      </div>
    </div>
  </div>
</header>
<main>
  <p class="status" id="status" aria-live="polite"></p>
  <ol class="grid" id="grid"></ol>
  <p class="empty" id="empty" hidden></p>
  <button type="button" class="more" id="more" hidden>더 보기</button>
  <noscript><p class="empty">이 페이지는 JavaScript가 필요합니다 (This page needs JavaScript).</p></noscript>
</main>
<script src="courses.js"></script>
<script>
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
    var link = el("a", null, "GeoJSON");
    link.href = c.geojson;
    meta.appendChild(link);
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
</script>
</body>
</html>

"""#
}
