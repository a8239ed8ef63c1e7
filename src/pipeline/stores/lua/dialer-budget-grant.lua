local field = 'grant:' .. ARGV[1]
local kept = redis.call('HGET', KEYS[1], field)
if kept then return tonumber(kept) end
local n, perDay, perHour = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if perDay >= 0 then n = math.min(n, perDay - tonumber(redis.call('HGET', KEYS[1], 'used') or '0')) end
if perHour >= 0 then n = math.min(n, perHour - tonumber(redis.call('HGET', KEYS[2], 'used') or '0')) end
if n < 0 then n = 0 end
redis.call('HINCRBY', KEYS[1], 'used', n)
redis.call('HSET', KEYS[1], field, n)
redis.call('HINCRBY', KEYS[2], 'used', n)
redis.call('EXPIRE', KEYS[1], {{KEEP_SECONDS}})
redis.call('EXPIRE', KEYS[2], {{KEEP_SECONDS}})
return n
