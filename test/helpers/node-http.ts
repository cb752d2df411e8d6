import http from "node:http";

/**
 * One request over node:http with a kept-alive agent, answered like fetch's (status, Headers,
 * text). The fuzzer sends hundreds of thousands of requests from the process that also runs the
 * server: fetch's streams and per-request objects were a fifth of that process's time, this a
 * fraction of it. Bodies fetch takes (FormData, Blob, ...) are encoded by a Request first, so the
 * bytes and the multipart boundary are fetch's own. No Accept-Encoding: answers come uncompressed.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export async function nodeHttpRequest(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: BodyInit | null; maxBodyBytes?: number },
): Promise<{ status: number; headers: Headers; text: string; truncated: boolean }> {
  const headers: Record<string, string> = { ...init.headers };
  let payload: Buffer | undefined;
  if (typeof init.body === "string") payload = Buffer.from(init.body);
  else if (init.body instanceof Uint8Array) payload = Buffer.from(init.body.buffer, init.body.byteOffset, init.body.byteLength);
  else if (init.body != null) {
    const encoded = new Request(url, { method: "POST", body: init.body });
    const type = encoded.headers.get("content-type");
    if (type && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) headers["Content-Type"] = type;
    payload = Buffer.from(await encoded.arrayBuffer());
  }
  if (payload) headers["Content-Length"] = String(payload.byteLength);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const answer = (truncated: boolean) => {
        const headers = new Headers();
        const raw = res.rawHeaders;
        for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
        resolve({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString("utf8"), truncated });
      };
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.byteLength;
        // A successful answer past the limit (a whole trail as CSV, the OpenAPI document, an export
        // ZIP) is cut here: the caller has its status and first bytes, and the server stops streaming.
        if (init.maxBodyBytes !== undefined && received > init.maxBodyBytes && (res.statusCode ?? 0) < 400) {
          res.destroy();
          answer(true);
        }
      });
      res.on("error", reject);
      res.on("end", () => answer(false));
    });
    req.on("error", (err) => reject(new TypeError("fetch failed", { cause: err })));
    req.end(payload);
  });
}
