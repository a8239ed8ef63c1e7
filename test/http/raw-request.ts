import { type Agent, request } from "node:http";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly the headers given (fetch won't send a Host or Origin of our choosing). */
export function raw(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: o.method ?? "GET", headers: o.headers ?? {}, agent: o.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer from ${url} within 15 s`)));
    req.end(o.body);
  });
}

/** The cookies a response sets, as `name=value` pairs (attributes dropped). */
export function cookiesOf(r: RawResponse): Record<string, string> {
  const set = r.headers["set-cookie"];
  const list = Array.isArray(set) ? set : set ? [set] : [];
  return Object.fromEntries(
    list.map((c) => {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      return [pair!.slice(0, i), pair!.slice(i + 1)];
    }),
  );
}

export const cookieHeader = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");
