local n = redis.call('HINCRBY', KEYS[1], 'n', -1)
if n <= 0 and tonumber(redis.call('HGET', KEYS[1], 'until') or '0') == 0 then redis.call('DEL', KEYS[1]) end
return n
