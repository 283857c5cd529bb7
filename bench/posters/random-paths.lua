-- wrk: each GET asks for one of the paths in $PATHS_FILE (one a line), picked at random with a
-- fixed seed ($SEED), so every run asks the same sequence; the requests are formatted once.
-- No `response` function: with one, wrk copies every body into Lua (140 KB a GET here), load
-- generator work that would take the 2 cores from the servers; wrk counts non-2xx itself.
-- Prints wrk's summary as one JSON line.
requests = {}  -- global: signed-paths.lua fills it with its own requests

init = function(args)
  for line in io.lines(os.getenv("PATHS_FILE")) do
    if #line > 0 then requests[#requests + 1] = wrk.format("GET", line) end
  end
  math.randomseed(tonumber(os.getenv("SEED") or "1"))
end

request = function()
  return requests[math.random(#requests)]
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"rate": %.1f, "requests": %d, "bytes": %d, "failures": %d, "non_2xx": %d, "p50_us": %d, "p99_us": %d}\n',
    summary.requests / (summary.duration / 1e6), summary.requests, summary.bytes,
    e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(50),
    latency:percentile(99)))
end
