local function parse_claim(v)
  local owner, ts, sent = string.match(v, '^p|(.*)|(%d+)|(%d*)$')
  if not owner then
    owner, ts = string.match(v, '^p|(.*)|(%d+)$')
    sent = ts
  end
  if not owner then return nil end
  return owner, tonumber(ts), tonumber(sent)
end
