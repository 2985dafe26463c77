"use strict";
// The discovery page `runnect serve` answers at `/`: the shared courses from the live API
// (`api/…`, relative, so the page works under a proxy's path too). Every runner's text goes
// into the page through textContent or DOM properties, never as markup. A pasted token is kept
// in sessionStorage only (this tab, until it closes or the runner signs out).
(function () {
  const TOKENS_KEY = "runnect.tokens";
  const DEBOUNCE_MS = 250;
  const PAGE_SIZE = 10;

  const $ = (id) => document.getElementById(id);
  const input = $("q");
  const grid = $("grid");
  const status = $("status");
  const empty = $("empty");
  const more = $("more");
  const showAll = $("show-all");
  const sortButtons = Array.from(document.querySelectorAll(".sort button"));

  // ---- Tokens: sessionStorage only ----------------------------------------------------------------
  function tokens() {
    try {
      const stored = JSON.parse(sessionStorage.getItem(TOKENS_KEY) || "null");
      if (stored && typeof stored.accessToken === "string" && typeof stored.refreshToken === "string") return stored;
    } catch (e) { /* unreadable: signed out */ }
    return null;
  }
  function keepTokens(pair) {
    if (pair) sessionStorage.setItem(TOKENS_KEY, JSON.stringify(pair));
    else sessionStorage.removeItem(TOKENS_KEY);
  }

  // ---- The API ------------------------------------------------------------------------------------
  class APIFailure extends Error {
    constructor(status, message) { super(message); this.status = status; }
  }
  // One request in the app's envelope: its `data`, or an APIFailure with the envelope's message.
  // A visitor sends `visitor`/`visitor` (API §5); a signed-in runner their tokens, refreshed once
  // on a 401 (the app's own rule).
  async function api(path, options, refreshed) {
    const init = Object.assign({ headers: {} }, options || {});
    const pair = tokens();
    init.headers = Object.assign({}, init.headers, {
      accessToken: pair ? pair.accessToken : "visitor", refreshToken: pair ? pair.refreshToken : "visitor",
    });
    let response;
    try {
      response = await fetch("api/" + path, init);
    } catch (e) {
      throw new APIFailure(0, "서버에 연결할 수 없습니다.");
    }
    let envelope = null;
    try { envelope = await response.json(); } catch (e) { /* not JSON */ }
    if (response.status === 401 && pair && !refreshed && path !== "auth/getNewToken") {
      if (await refresh(pair)) return api(path, options, true);
      signedOut("로그인이 만료되었습니다. 토큰으로 다시 로그인하세요.");
    }
    if (!response.ok || !envelope || envelope.success !== true) {
      const message = envelope && typeof envelope.message === "string" ? envelope.message : "HTTP " + response.status;
      throw new APIFailure(response.status, message);
    }
    return envelope.data;
  }
  async function refresh(pair) {
    try {
      const data = await api("auth/getNewToken", {}, true);
      if (!data || typeof data.accessToken !== "string") return false;
      keepTokens({ accessToken: data.accessToken, refreshToken: data.refreshToken || pair.refreshToken });
      return true;
    } catch (e) {
      return false;
    }
  }
  const query = (params) => new URLSearchParams(params).toString();

  // ---- Formatting ---------------------------------------------------------------------------------
  function kilometres(km) {
    return (typeof km === "number" && isFinite(km) ? km : 0).toFixed(2) + " km";
  }
  function metres(m) {
    return m < 1000 ? Math.round(m) + " m" : (m / 1000).toFixed(1) + " km";
  }
  // "HH:MM:SS" as the app writes it, shown as H:MM:SS.
  function clock(text) {
    return typeof text === "string" ? text.replace(/^0(\d:)/, "$1") : "";
  }
  // A pace "HH:MM:SS" (per km) as 5'10"/km.
  function pace(text) {
    const parts = typeof text === "string" ? text.split(":").map(Number) : [];
    if (parts.length !== 3 || parts.some((n) => !isFinite(n))) return "";
    const minutes = parts[0] * 60 + parts[1];
    return minutes + "'" + String(parts[2]).padStart(2, "0") + "\"/km";
  }
  function departureText(departure) {
    if (!departure) return "";
    return [departure.region, departure.city, departure.town, departure.name].filter((p) => p).join(" ");
  }

  // ---- DOM helpers (textContent only) -------------------------------------------------------------
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function say(text, isError) {
    status.textContent = text;
    status.classList.toggle("error", !!isError);
  }

  // ---- Views: the feed (date or scrap), a search, near a point ---------------------------------------
  // Every answer that changes the list carries the number of the request that asked for it; an
  // answer whose number is no longer the latest is dropped, so a late answer to an old query
  // never replaces a newer one.
  const state = { view: { kind: "feed" }, sort: "date", page: 0, items: [], latest: 0 };

  async function fetchPage(view, sort, page) {
    if (view.kind === "search") {
      if (!view.all) {
        const data = await api("public-course/search?" + query({ keyword: view.keyword }));
        view.all = (data && data.publicCourses) || [];
      }
      let all = view.all;
      if (sort === "scrap") {
        all = all.map((c, i) => [c, i]).sort((a, b) => (b[0].scrapCount || 0) - (a[0].scrapCount || 0) || a[1] - b[1])
          .map((p) => p[0]);
      }
      return { items: all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), isEnd: page * PAGE_SIZE >= all.length,
        total: all.length };
    }
    if (view.kind === "near") {
      const data = await api("public-course/near?" + query({ lat: view.lat, lon: view.lon, within: view.within, pageNo: page }));
      return { items: data.publicCourses || [], isEnd: !!data.isEnd };
    }
    const data = await api("public-course?" + query({ pageNo: page, sort: sort }));
    return { items: data.publicCourses || [], isEnd: !!data.isEnd };
  }

  function describe(view, sort, count, isEnd, total) {
    const order = sort === "scrap" ? "스크랩순" : "최신순";
    const shown = isEnd ? count + "개" : count + "개 표시 중";
    if (view.kind === "search") return "“" + view.keyword + "” 검색 결과 " + (total !== undefined ? total : count) + "개 · " + order;
    if (view.kind === "near") return view.label + "에서 " + view.within + " km 안의 코스 " + shown + " · 가까운 순";
    return "공유된 코스 " + shown + " · " + order;
  }

  // Shows `view` from its first page (append false) or adds its next page.
  async function show(view, append) {
    const ticket = ++state.latest;
    const page = append ? state.page + 1 : 1;
    const sort = state.sort;
    more.disabled = true;
    if (!append) say("불러오는 중…");
    let result;
    try {
      result = await fetchPage(view, sort, page);
    } catch (error) {
      if (ticket !== state.latest) return;
      more.disabled = false;
      say(error.message, true);
      return;
    }
    if (ticket !== state.latest) return;
    state.view = view;
    state.page = page;
    state.items = append ? state.items.concat(result.items) : result.items;
    const fragment = document.createDocumentFragment();
    result.items.forEach((course) => fragment.appendChild(card(course, view.kind === "near")));
    if (!append) grid.textContent = "";
    grid.appendChild(fragment);
    more.hidden = result.isEnd;
    more.disabled = false;
    showAll.hidden = view.kind !== "near";
    empty.hidden = state.items.length > 0;
    empty.textContent = view.kind === "feed" ? "공유된 코스가 없습니다." : "찾은 코스가 없습니다. 다른 검색어나 위치를 입력해 보세요.";
    say(describe(view, sort, state.items.length, result.isEnd, result.total));
    refreshCourseChoices();
  }

  // The same view asked again (a search's answer depends on who asks: its scrap flags).
  function fresh(view) {
    return Object.assign({}, view, { all: undefined });
  }

  function currentListView() {
    const keyword = input.value.trim();
    return keyword ? { kind: "search", keyword: keyword } : { kind: "feed" };
  }

  // ---- Cards --------------------------------------------------------------------------------------
  function card(course, near) {
    const id = Number(course.id);
    const li = el("li", "card");
    li.setAttribute("data-id", String(id));
    const preview = el("div", "preview");
    const img = el("img");
    // The server's small drawing of the path, not the app's map snapshot (up to 5 MiB each).
    img.src = "page/preview/" + id;
    img.alt = course.title + " 코스 경로 미리보기";
    img.loading = "lazy";
    img.decoding = "async";
    img.width = 640;
    img.height = 480;
    preview.appendChild(img);
    li.appendChild(preview);

    const body = el("div", "body");
    const title = el("h3", "title", course.title);
    title.id = "course-" + id;
    body.appendChild(title);
    const departure = el("p", "departure", departureText(course.departure) || "출발지 정보 없음");
    if (near && typeof course.distanceMeters === "number") {
      departure.appendChild(document.createTextNode(" · "));
      departure.appendChild(el("span", "near-distance", "여기서 " + metres(course.distanceMeters)));
    }
    body.appendChild(departure);

    const stats = el("ul", "stats");
    stats.appendChild(el("li", "distance", kilometres(course.distance)));
    const scraps = el("li", "scraps", "★ " + (course.scrapCount || 0));
    scraps.setAttribute("aria-label", "스크랩 " + (course.scrapCount || 0) + "회");
    stats.appendChild(scraps);
    body.appendChild(stats);

    const actions = el("div", "actions");
    if (tokens()) {
      const toggle = el("button", "scrap");
      toggle.type = "button";
      setScrapButton(toggle, !!course.scrap);
      toggle.setAttribute("aria-describedby", title.id);
      toggle.addEventListener("click", () => toggleScrap(id, toggle, scraps));
      actions.appendChild(toggle);
    }
    [["gpx", "GPX"], ["fit", "FIT"]].forEach(([format, label]) => {
      const link = el("a", "download " + format, label);
      link.appendChild(el("span", "visually-hidden", " 내려받기"));
      link.href = "api/course/" + id + "/file?" + query({ format: format });
      link.setAttribute("download", "");
      link.setAttribute("aria-describedby", title.id);
      actions.appendChild(link);
    });
    body.appendChild(actions);

    const ranking = el("details", "ranking");
    const summary = el("summary", null, "순위");
    summary.setAttribute("aria-describedby", title.id);
    ranking.appendChild(summary);
    const board = el("div", "board");
    ranking.appendChild(board);
    ranking.addEventListener("toggle", () => { if (ranking.open) loadRanking(id, board); });
    body.appendChild(ranking);
    li.appendChild(body);
    return li;
  }

  function setScrapButton(button, scrapped) {
    button.setAttribute("aria-pressed", String(scrapped));
    button.textContent = scrapped ? "★ 스크랩함" : "☆ 스크랩";
  }

  async function toggleScrap(id, button, scraps) {
    const wanted = button.getAttribute("aria-pressed") !== "true";
    button.disabled = true;
    try {
      const data = await api("scrap", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ publicCourseId: id, scrapTF: wanted }),
      });
      setScrapButton(button, !!data.scrapTF);
      scraps.textContent = "★ " + data.scrapCount;
      scraps.setAttribute("aria-label", "스크랩 " + data.scrapCount + "회");
      const item = state.items.find((c) => Number(c.id) === id);
      if (item) { item.scrap = !!data.scrapTF; item.scrapCount = data.scrapCount; }
      say(data.scrapTF ? "스크랩했습니다." : "스크랩을 취소했습니다.");
    } catch (error) {
      say(error.message, true);
    } finally {
      button.disabled = false;
    }
  }

  async function loadRanking(id, board) {
    if (!tokens()) {
      board.textContent = "";
      board.appendChild(el("p", null, "순위는 로그인한 러너만 볼 수 있습니다."));
      return;
    }
    board.textContent = "";
    board.appendChild(el("p", null, "불러오는 중…"));
    try {
      const [ranking, mine] = await Promise.all([
        api("course/" + id + "/ranking?" + query({ limit: 5 })), api("course/" + id + "/ranking/me"),
      ]);
      board.textContent = "";
      const entries = (ranking && ranking.entries) || [];
      if (entries.length === 0) {
        board.appendChild(el("p", null, "아직 기록이 없습니다."));
      } else {
        const list = el("ol");
        entries.forEach((entry) => {
          const line = entry.nickname + " · " + clock(entry.time) + " · " + pace(entry.pace) + (entry.measured ? "" : " (앱 기록)");
          const item = el("li", mine && mine.recordId === entry.recordId ? "mine" : null, line);
          item.value = entry.rank;
          list.appendChild(item);
        });
        board.appendChild(list);
        board.appendChild(el("p", null, "기록한 러너 " + ranking.totalCount + "명"));
      }
      if (mine && mine.hasRecord) {
        board.appendChild(el("p", "mine", "내 순위: " + mine.rank + "위 · " + clock(mine.time)));
      }
    } catch (error) {
      board.textContent = "";
      board.appendChild(el("p", null, error.message));
    }
  }

  // ---- Search as you type, sort, paging ------------------------------------------------------------
  let typing = 0;
  input.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => show(currentListView(), false), DEBOUNCE_MS);
  });
  $("search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(typing);
    show(currentListView(), false);
  });
  sortButtons.forEach((button) => {
    button.addEventListener("click", () => {
      state.sort = button.getAttribute("data-sort") === "scrap" ? "scrap" : "date";
      sortButtons.forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
      const view = state.view.kind === "search" && state.view.keyword === input.value.trim() ? state.view : currentListView();
      show(view, false);
    });
  });
  more.addEventListener("click", () => show(state.view, true));
  showAll.addEventListener("click", () => show(currentListView(), false));

  // ---- Near: my location, a typed "lat,lon", or a stored departure's name ---------------------------
  const COORDINATES = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*[,\s]\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;
  function within() { return Number($("near-within").value) || 5; }
  function showNear(lat, lon, label) {
    input.value = "";  // the list is no longer a search's
    show({ kind: "near", lat: lat.toFixed(6), lon: lon.toFixed(6), within: within(), label: label }, false);
  }
  $("near-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("near-place").value.trim();
    if (!text) { say("위도,경도 또는 출발지 이름을 입력하세요.", true); $("near-place").focus(); return; }
    const match = COORDINATES.exec(text);
    if (match) {
      const lat = Number(match[1]), lon = Number(match[2]);
      if (Math.abs(lat) > 90 || Math.abs(lon) > 180) { say("위도는 -90~90, 경도는 -180~180 사이여야 합니다.", true); return; }
      showNear(lat, lon, lat.toFixed(4) + ", " + lon.toFixed(4));
      return;
    }
    // A departure's name: the first shared course the search finds for it, and its path's start.
    const ticket = ++state.latest;
    say("“" + text + "” 출발지를 찾는 중…");
    try {
      const found = await api("public-course/search?" + query({ keyword: text }));
      const first = found && found.publicCourses && found.publicCourses[0];
      if (!first) { if (ticket === state.latest) say("“" + text + "”에 해당하는 출발지를 찾지 못했습니다.", true); return; }
      const detail = await api("public-course/detail/" + Number(first.id));
      const start = detail && detail.publicCourse && detail.publicCourse.path && detail.publicCourse.path[0];
      if (ticket !== state.latest) return;
      if (!start) { say("“" + text + "” 코스의 출발점을 읽지 못했습니다.", true); return; }
      showNear(Number(start[0]), Number(start[1]), "“" + first.title + "” 출발점");
    } catch (error) {
      if (ticket === state.latest) say(error.message, true);
    }
  });
  $("near-me").addEventListener("click", () => {
    if (!navigator.geolocation || !window.isSecureContext) {
      say("이 브라우저에서는 위치를 쓸 수 없습니다 (HTTPS 또는 localhost 필요). 위도,경도를 입력하세요.", true);
      return;
    }
    say("현재 위치를 확인하는 중…");
    navigator.geolocation.getCurrentPosition(
      (position) => showNear(position.coords.latitude, position.coords.longitude, "내 위치"),
      (error) => say(error.code === 1 ? "위치 권한이 거부되었습니다. 위도,경도를 입력하세요." : "현재 위치를 알 수 없습니다.", true),
      { enableHighAccuracy: false, timeout: 15000, maximumAge: 60000 });
  });

  // ---- Signing in with a pasted token ----------------------------------------------------------------
  const signedOutPanel = $("signed-out");
  const signedInPanel = $("signed-in");
  function signedOut(message) {
    keepTokens(null);
    signedInPanel.hidden = true;
    signedOutPanel.hidden = false;
    if (message) say(message, true);
  }
  async function whoAmI() {
    const data = await api("user");
    $("runner-name").textContent = (data && data.user && data.user.nickname ? data.user.nickname : "러너") + "님으로 로그인됨";
    signedOutPanel.hidden = true;
    signedInPanel.hidden = false;
  }
  $("signin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    let access = $("access-token").value.trim();
    let refreshToken = $("refresh-token").value.trim();
    if (access.startsWith("{")) {
      // The line `runnect serve token NAME` prints: {"accessToken":…,"refreshToken":…}.
      try {
        const pair = JSON.parse(access);
        access = String(pair.accessToken || "");
        refreshToken = String(pair.refreshToken || refreshToken);
      } catch (e) {
        say("JSON을 읽을 수 없습니다. runnect serve token이 출력한 한 줄을 그대로 붙여 넣으세요.", true);
        return;
      }
    }
    if (!access || !refreshToken) { say("액세스 토큰과 리프레시 토큰이 모두 필요합니다.", true); return; }
    keepTokens({ accessToken: access, refreshToken: refreshToken });
    try {
      await whoAmI();
      $("access-token").value = "";
      $("refresh-token").value = "";
      show(fresh(state.view), false);
      $("signout").focus();
    } catch (error) {
      signedOut("로그인하지 못했습니다: " + error.message);
    }
  });
  $("signout").addEventListener("click", () => {
    signedOut();
    say("로그아웃했습니다.");
    show(fresh(state.view), false);
  });

  // ---- A watch file, recorded -------------------------------------------------------------------------
  function refreshCourseChoices() {
    const select = $("upload-course");
    const chosen = select.value;
    while (select.options.length > 1) select.remove(1);
    state.items.forEach((course) => {
      const option = el("option", null, course.title + " (#" + Number(course.id) + ")");
      option.value = String(Number(course.id));
      select.appendChild(option);
    });
    select.value = chosen;
    if (select.value !== chosen) select.value = "";
  }
  $("upload-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = $("upload-result");
    const file = $("upload-file").files[0];
    result.textContent = "";
    if (!file) { result.appendChild(el("p", "error", "올릴 파일을 고르세요.")); $("upload-file").focus(); return; }
    const form = new FormData();
    form.append("file", file, file.name);
    const title = $("upload-title").value.trim();
    if (title) form.append("title", title);
    const course = $("upload-course").value;
    if (course) form.append("courseId", course);
    const button = event.target.querySelector("button[type=submit]");
    button.disabled = true;
    result.appendChild(el("p", null, "올리는 중…"));
    try {
      const data = await api("record/run", { method: "POST", body: form });
      result.textContent = "";
      const record = (data && data.record) || {};
      const match = (data && data.match) || {};
      result.appendChild(el("p", null, "기록 #" + record.id + " “" + (record.title || "") + "”을(를) 저장했습니다."));
      const facts = el("dl");
      const add = (term, value) => {
        if (value === undefined || value === null || value === "") return;
        facts.appendChild(el("dt", null, term));
        facts.appendChild(el("dd", null, value));
      };
      add("코스 거리", typeof record.distance === "number" ? kilometres(record.distance) : "");
      if (typeof record.runDistanceMeters === "number") add("달린 거리", metres(record.runDistanceMeters));
      add("코스 기록", clock(match.courseTime || record.time));
      add("페이스", pace(record.pace));
      if (match.courseId !== undefined && match.courseId !== null) {
        add("코스", (match.courseTitle ? match.courseTitle + " " : "") + "#" + match.courseId
          + (match.isNewCourse ? " (기록으로 만든 새 코스)" : ""));
      }
      if (typeof match.coverage === "number") add("코스 일치", Math.round(match.coverage * 100) + "%");
      if (match.isPersonalBest) add("개인 최고", "예, 이 코스의 개인 최고 기록입니다");
      result.appendChild(facts);
      $("upload-file").value = "";
    } catch (error) {
      result.textContent = "";
      result.appendChild(el("p", "error", "올리지 못했습니다: " + error.message));
    } finally {
      button.disabled = false;
    }
  });

  // ---- Start ------------------------------------------------------------------------------------------
  if (tokens()) whoAmI().catch(() => signedOut("저장된 토큰으로 로그인하지 못했습니다. 다시 로그인하세요."));
  show(currentListView(), false);
})();
