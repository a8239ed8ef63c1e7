local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local h = redis.call('HMGET', KEYS[1], 'rate', 'tat', 'last', 'cut')
local rate = tonumber(h[1]) or tonumber(ARGV[2])
local tat = tonumber(h[2]) or now
local last = tonumber(h[3]) or now
local n = math.max(1, math.floor(tonumber(ARGV[6]) or 1))
if ARGV[1] == 'adaptive' then
  local dt = math.min(now - last, 1000) / 1000
  if tat > now and dt > 0 then
    if h[4] then rate = rate * (1 + tonumber(ARGV[5]) * dt) else rate = rate * (1 + dt) end
  end
  rate = math.min(math.max(rate, tonumber(ARGV[3])), tonumber(ARGV[4]))
else
  rate = tonumber(ARGV[2])
end
local slot = math.max(tat, now)
local every = 1000 / rate
redis.call('HSET', KEYS[1], 'rate', tostring(rate), 'tat', tostring(slot + n * every), 'last', tostring(now))
redis.call('PEXPIRE', KEYS[1], 86400000)
return {tostring(slot - now), tostring(every)}
