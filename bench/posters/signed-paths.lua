-- wrk: each GET asks SeaweedFS for one of the objects in $SIGNED_FILE (sign.py's lines: path,
-- x-amz-date, Authorization), picked at random with a fixed seed ($SEED). random-paths.lua's
-- `request` and `done` are reused (loaded from beside this file); only the requests differ.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "random-paths.lua")

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
