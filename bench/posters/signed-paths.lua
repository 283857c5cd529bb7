-- wrk: each GET asks SeaweedFS for one of the objects in $SIGNED_FILE (sign.py's lines: path,
-- x-amz-date, Authorization), picked at random with a fixed seed ($SEED), as random-paths.lua
-- picks the service's paths; the requests are formatted once. Prints wrk's summary as one JSON
-- line, as random-paths.lua does.
local requests = {}

init = function(args)
  local sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
  for line in io.lines(os.getenv("SIGNED_FILE")) do
    local path, date, authorization = line:match("^([^\t]+)\t([^\t]+)\t(.+)$")
    if path then
      requests[#requests + 1] = wrk.format("GET", path, {
        ["x-amz-date"] = date, ["x-amz-content-sha256"] = sha, ["Authorization"] = authorization })
    end
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
