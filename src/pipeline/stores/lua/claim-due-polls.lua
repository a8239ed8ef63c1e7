local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
local ids = {}
local oldest = ''
for i = 1, #due, 2 do
  ids[#ids + 1] = due[i]
  if oldest == '' then oldest = due[i + 1] end
end
for i = 1, #ids, 500 do
  local args = {}
  for j = i, math.min(i + 499, #ids) do
    args[#args + 1] = ARGV[2]
    args[#args + 1] = ids[j]
  end
  redis.call('ZADD', KEYS[1], 'XX', unpack(args))
end
return {oldest, ids}
