{{LUA_NOW_MS}}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local mark = { at = now_ms, sends = 1 }
local before = redis.call('GET', KEYS[2])
if before then
  local ok, old = pcall(cjson.decode, before)
  if ok and type(old) == 'table' then mark.sends = (tonumber(old.sends) or 1) + 1 end
end
if ARGV[4] ~= '' then mark.note = ARGV[4] end
redis.call('SET', KEYS[2], cjson.encode(mark), 'PX', ARGV[3])
return now_ms
