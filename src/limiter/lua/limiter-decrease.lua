local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local h = redis.call('HMGET', KEYS[1], 'rate', 'cut')
local rate = tonumber(h[1])
if not rate then return 0 end
if h[2] and now - tonumber(h[2]) < tonumber(ARGV[3]) then return 0 end
rate = math.max(tonumber(ARGV[2]), rate * tonumber(ARGV[1]))
redis.call('HSET', KEYS[1], 'rate', tostring(rate), 'cut', tostring(now))
redis.call('HINCRBY', KEYS[1], 'cuts', 1)
return 1
