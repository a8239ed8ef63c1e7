{{LUA_NOW_MS}}
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  local sep = string.find(entries[i + 1], '\n', 1, true)
  local job = string.sub(entries[i + 1], 1, sep - 1)
  local expiry = tonumber(string.sub(entries[i + 1], sep + 1))
  if expiry < now_ms then
    redis.call('HDEL', KEYS[1], entries[i])
  elseif job ~= ARGV[2] and entries[i] ~= ARGV[1] then
    return job
  end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '\n' .. (now_ms + tonumber(ARGV[3])))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return ''
