local k, op, now = KEYS[1], ARGV[4], tonumber(ARGV[5])
local max, window, cap = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local h = redis.call('HMGET', k, 'n', 'since', 'until', 'level')
local n, since = tonumber(h[1] or '0'), tonumber(h[2] or '0')
local untilMs, level = tonumber(h[3] or '0'), tonumber(h[4] or '-1')
if untilMs > now then return untilMs - now end
if untilMs > 0 and now >= untilMs + window then n, since, untilMs, level = 0, 0, 0, -1 end
if untilMs == 0 and now >= since + window then n, since = 0, 0 end
if op == 'peek' then return 0 end
if untilMs > 0 then n = math.min(n, max - 1) end
if op ~= 'close' then n = n + 1 end
if since == 0 then since = now end
local wait = 0
if (op == 'count' and n > max) or (op ~= 'count' and n >= max) then
  level = level + 1
  wait = math.min(cap, window * 2 ^ level)
  untilMs = now + wait
end
redis.call('HSET', k, 'n', n, 'since', since, 'until', untilMs, 'level', level)
redis.call('PEXPIRE', k, math.max(1, (untilMs > 0 and untilMs or since) + window - now))
if op == 'count' then return wait end
return 0
