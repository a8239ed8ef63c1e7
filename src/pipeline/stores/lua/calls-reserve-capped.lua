local function spans_of(key, digest)
  local all = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
  local out, mine = {}, false
  for i = 1, #all, 2 do
    local d, e = string.match(all[i], '^([^|]+)|(%-?%d+)$')
    local a = tonumber(all[i + 1])
    if not d then d, e = all[i], a end
    if d == digest then mine = true else out[#out + 1] = { a, tonumber(e) } end
  end
  return out, mine
end
-- The most spans one window of p ms can hold while holding an instant of [from, till] (calling/frequency.ts).
local function most(spans, p, from, till)
  local lo = from - p + 1
  local starts, best = { lo }, 0
  for _, s in ipairs(spans) do
    local x = s[1] - p + 1
    if x > lo and x <= till then starts[#starts + 1] = x end
  end
  for _, x in ipairs(starts) do
    local n = 0
    for _, s in ipairs(spans) do
      if s[1] - p + 1 <= x and x <= s[2] then n = n + 1 end
    end
    if n > best then best = n end
  end
  return best
end
{{LUA_NOW_MS}}
local at, till, digest = tonumber(ARGV[2]), tonumber(ARGV[7]), ARGV[6]
local h = redis.call('HMGET', KEYS[1], 'campaign', 'lastAt')
if h[1] == ARGV[1] then return 'ok' end
local spans, mine = spans_of(KEYS[2], digest)
if mine then return 'ok' end
local last = tonumber(h[2])
if ARGV[4] ~= 'force' and last and math.abs(at - last) < tonumber(ARGV[3]) then return 'recent' end
for i = 8, #ARGV, 2 do
  if most(spans, tonumber(ARGV[i + 1]), at, till) >= tonumber(ARGV[i]) then return 'cap' end
end
redis.call('HSET', KEYS[1], 'lastAt', tostring(math.max(last or at, at)), 'campaign', ARGV[1])
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[2], at, digest .. '|' .. till)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now_ms - 2 * {{KEEP_MS}}))
local ttl = math.max(redis.call('PTTL', KEYS[2]), till - now_ms + {{KEEP_MS}})
redis.call('PEXPIRE', KEYS[2], math.floor(ttl))
return 'ok'
