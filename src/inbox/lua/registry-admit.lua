local raw = redis.call('HGET', KEYS[1], ARGV[1])
local rec = raw and cjson.decode(raw)
-- The same file again (a restart, a rescan): its own import, queued or imported but not yet settled.
-- A fresh drop (ARGV[4]) of content already imported is a second drop, under any name: its first was settled.
if rec and rec.file == ARGV[2] and rec.state ~= 'rejected' and (ARGV[4] ~= 'drop' or rec.state == 'queued') then
  return {'mine', tostring(rec.gen)}
end
if rec and rec.state ~= 'rejected' then return {'duplicate', raw} end
local gen = (rec and rec.gen or 0) + 1
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode({state = 'queued', file = ARGV[2], gen = gen, at = ARGV[3]}))
return {'new', tostring(gen)}
