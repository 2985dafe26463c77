-- wrk's script for scripts/bench-serve.sh: what the app asks of `runnect serve`, one kind of
-- request a run (BENCH_MODE), spread over the benchmark store's runners (BENCH_TOKENS: access
-- and refresh tokens, a pair a line, as the app sends them) and courses (BENCH_FIRST..BENCH_LAST). Prints one JSON line when done.
--
--   feed      GET /api/public-course?pageNo=N&sort=date|scrap, N in 1..BENCH_PAGES
--   detail    GET /api/public-course/detail/ID
--   search    GET /api/public-course/search?keyword=K, K from BENCH_QUERIES (URL-encoded lines)
--   record    POST /api/record (a time the app measured, varied by request)
--   scrap     POST /api/scrap (toggles: scrap, then unscrap on the next visit)
--   course    POST /api/course (multipart: a drawn path of 12 taps and BENCH_IMAGE, a PNG)
--   watchrun  POST /api/record/run (multipart: a 10 km GPX run, the points of BENCH_RUN_POINTS
--             (`lat lon ele epoch` lines) moved a few centimetres and days by request, so that
--             every file is new and still follows the course it was made from)
--   download  GET /api/course/BENCH_DOWNLOAD_COURSE/file?format=gpx, without the API's headers
--             (a watch's app or a browser's link, as a visitor)
--
-- Answers are counted by status (the `response` hook) only where BENCH_COUNT_STATUS=1: it costs
-- wrk time, so the read runs leave it off and use wrk's own count of non-2xx answers.

local mode = os.getenv("BENCH_MODE") or "feed"
local first = tonumber(os.getenv("BENCH_FIRST") or "1")
local last = tonumber(os.getenv("BENCH_LAST") or "100000")
local pages = tonumber(os.getenv("BENCH_PAGES") or "10")
local countStatus = os.getenv("BENCH_COUNT_STATUS") == "1"

local function lines(path)
  local all = {}
  if path then
    for line in io.lines(path) do
      if #line > 0 then all[#all + 1] = line end
    end
  end
  return all
end

local tokens = {}
for _, line in ipairs(lines(os.getenv("BENCH_TOKENS"))) do
  local access, refresh = line:match("^(%S+) (%S+)$")
  tokens[#tokens + 1] = { access = access, refresh = refresh }
end
-- Courses of 3 to 42 km, where a time of 1:24 to 1:30 is a pace the server takes.
local recordCourses = lines(os.getenv("BENCH_RECORD_COURSES"))
local queries = lines(os.getenv("BENCH_QUERIES"))
local runPoints = {}
for _, line in ipairs(lines(os.getenv("BENCH_RUN_POINTS"))) do
  local lat, lon, ele, t = line:match("^(%S+) (%S+) (%S+) (%S+)$")
  runPoints[#runPoints + 1] = { lat = tonumber(lat), lon = tonumber(lon), ele = tonumber(ele), t = tonumber(t) }
end
local downloadCourse = os.getenv("BENCH_DOWNLOAD_COURSE") or "1"
local image = ""
if mode == "course" then
  local file = assert(io.open(os.getenv("BENCH_IMAGE"), "rb"))
  image = file:read("*a")
  file:close()
end

local threads = {}
local counter = 0
-- Globals, so that `done` can read each thread's (thread:get reads globals only).
statuses = {}
retryAfterMissing = 0

function setup(thread)
  thread:set("id", #threads)
  threads[#threads + 1] = thread
end

function init(args)
  -- Each thread its own sequence (wrk seeds every thread's Lua alike).
  math.randomseed(os.time() * 1000 + (id or 0) * 7919)
  -- Threads apart in their courses and runners alike (a multiple of 64 × 100,000 would line
  -- them up).
  counter = (id or 0) * 1000037
end

local boundary = "runnect-bench-boundary-7d1f"

local function courseBody(n)
  local lat = 37.50 + (n % 997) * 0.0001
  local lon = 127.00 + (n % 991) * 0.0001
  local taps = {}
  for i = 0, 11 do
    local angle = i * math.pi / 6
    taps[#taps + 1] = string.format('{"latitude":%.6f,"longitude":%.6f}', lat + 0.004 * math.cos(angle),
      lon + 0.005 * math.sin(angle))
  end
  local data = string.format(
    '{"path":[%s],"title":"벤치 코스 %d","distance":3.1,"departureAddress":"서울 송파구 잠실동 올림픽로 %d","departureName":"잠실"}',
    table.concat(taps, ","), n, n % 300 + 1)
  return "--" .. boundary .. "\r\n" ..
      'Content-Disposition: form-data; name="data"\r\nContent-Type: application/json\r\n\r\n' .. data .. "\r\n" ..
      "--" .. boundary .. "\r\n" ..
      'Content-Disposition: form-data; name="image"; filename="map.png"\r\nContent-Type: image/png\r\n\r\n' ..
      image .. "\r\n--" .. boundary .. "--\r\n"
end

-- A watch's GPX of the run, the n-th: every point moved north by n % 50 centimetres and the
-- whole run n days later (a new file each time, the same way run).
local function runBody(n)
  local dlat = (n % 50) * 0.0000045
  local shift = n * 86400
  local parts = {
    "--" .. boundary .. "\r\n",
    'Content-Disposition: form-data; name="file"; filename="run-' .. n .. '.gpx"\r\n',
    "Content-Type: application/gpx+xml\r\n\r\n",
    '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="runnect-bench" ' ..
    'xmlns="http://www.topografix.com/GPX/1/1"><trk><name>벤치 달리기 ' .. n .. '</name><trkseg>\n',
  }
  for _, p in ipairs(runPoints) do
    parts[#parts + 1] = string.format('<trkpt lat="%.7f" lon="%.7f"><ele>%.1f</ele><time>%s</time></trkpt>\n',
      p.lat + dlat, p.lon, p.ele, os.date("!%Y-%m-%dT%H:%M:%SZ", p.t + shift))
  end
  parts[#parts + 1] = "</trkseg></trk></gpx>\r\n--" .. boundary .. "--\r\n"
  return table.concat(parts)
end

-- Scrap toggles: each thread flips a course's flag each time it comes back to it (its runner
-- varies, so a toggle may find the course already as asked: the server answers that as done).
local scrapped = {}

function request()
  counter = counter + 1
  local headers = {}
  if #tokens > 0 then
    local pair = tokens[(counter % #tokens) + 1]
    headers["accessToken"] = pair.access
    headers["refreshToken"] = pair.refresh
  end
  if mode == "feed" then
    local sort = (counter % 2 == 0) and "date" or "scrap"
    return wrk.format("GET", "/api/public-course?pageNo=" .. math.random(1, pages) .. "&sort=" .. sort, headers)
  elseif mode == "detail" then
    return wrk.format("GET", "/api/public-course/detail/" .. math.random(first, last), headers)
  elseif mode == "search" then
    return wrk.format("GET", "/api/public-course/search?keyword=" .. queries[(counter % #queries) + 1], headers)
  elseif mode == "record" then
    headers["Content-Type"] = "application/json"
    local course = recordCourses[math.random(1, #recordCourses)]
    -- 1:24:00 to 1:29:59: a pace of 2:00 to 30:00 a kilometre on every course of 3 to 42 km.
    local seconds = 5040 + (counter % 360)
    local body = string.format(
      '{"courseId":%s,"title":"벤치 기록 %d","time":"%02d:%02d:%02d","pace":"0:06:%02d"}',
      course, counter, math.floor(seconds / 3600), math.floor((seconds % 3600) / 60), seconds % 60, counter % 60)
    return wrk.format("POST", "/api/record", headers, body)
  elseif mode == "scrap" then
    headers["Content-Type"] = "application/json"
    local course = first + (counter * 7919) % (last - first + 1)
    local on = not scrapped[course]
    scrapped[course] = on
    return wrk.format("POST", "/api/scrap",
      headers, string.format('{"publicCourseId":%d,"scrapTF":%s}', course, on and "true" or "false"))
  elseif mode == "course" then
    headers["Content-Type"] = "multipart/form-data; boundary=" .. boundary
    return wrk.format("POST", "/api/course", headers, courseBody(counter))
  elseif mode == "watchrun" then
    headers["Content-Type"] = "multipart/form-data; boundary=" .. boundary
    return wrk.format("POST", "/api/record/run", headers, runBody(counter))
  elseif mode == "download" then
    return wrk.format("GET", "/api/course/" .. downloadCourse .. "/file?format=gpx", {})
  end
end

if countStatus then
  function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
    if status == 503 and headers["Retry-After"] == nil and headers["retry-after"] == nil then
      retryAfterMissing = retryAfterMissing + 1
    end
  end
end

function done(summary, latency, requests)
  local byStatus = {}
  local missing = 0
  for _, thread in ipairs(threads) do
    local counted = thread:get("statuses")
    if counted then
      for status, count in pairs(counted) do byStatus[status] = (byStatus[status] or 0) + count end
    end
    missing = missing + (thread:get("retryAfterMissing") or 0)
  end
  local parts = {}
  for status, count in pairs(byStatus) do parts[#parts + 1] = string.format('"%d":%d', status, count) end
  local seconds = summary.duration / 1e6
  io.write(string.format(
    '{"mode":"%s","requests":%d,"seconds":%.2f,"rps":%.1f,"p50_ms":%.2f,"p90_ms":%.2f,"p99_ms":%.2f,"max_ms":%.2f,' ..
    '"non_2xx":%d,"socket_errors":%d,"timeouts":%d,"statuses":{%s},"503_without_retry_after":%d}\n',
    mode, summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
    latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write, summary.errors.timeout,
    table.concat(parts, ","), missing))
end
