
for _, phone in ipairs(ARGV) do
  local v = redis.call('HGET', KEYS[1], phone)
  if not v or string.sub(v, 1, 1) ~= 'd' then redis.call('HSET', KEYS[1], phone, 'd') end
end
return #ARGV
