import { nodeHttpRequest } from "./node-http.ts";
import { checkApiResponse } from "./response-contract.ts";

/**
 * A small HTTP client for tests: keeps cookies like a browser, sends our own Origin (so CSRF
 * protection lets it through unless a test says otherwise), and returns parsed JSON bodies, each
 * checked against the schema /api/openapi.json documents for it (response-contract.ts).
 */
// A parsed JSON body: tests read it freely and pin its shape with expect() (and checkApiResponse).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export type ApiResponse<T = Json> = { status: number; headers: Headers; body: T; text: string };

export class ApiClient {
  readonly cookies = new Map<string, string>();
  bearer: string | null = null;

  /** "node-http" for the fuzzer's floods (node-http.ts); fetch, as a browser sends, for the rest. */
  transport: "fetch" | "node-http" = "fetch";
  /**
   * With node-http: read at most this many bytes of a successful answer (its body is then the text
   * so far, unparsed). The fuzzer's checks need the status and an error's body, not a whole export.
   */
  maxBodyBytes: number | undefined = undefined;

  constructor(
    readonly baseUrl: string,
    readonly defaultHeaders: Record<string, string> = { Origin: baseUrl },
  ) {}

  async request<T = Json>(
    method: string,
    path: string,
    opts: { json?: unknown; body?: BodyInit; headers?: Record<string, string>; cookies?: boolean } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...opts.headers };
    if (opts.json !== undefined) headers["Content-Type"] = "application/json";
    if (opts.cookies !== false && this.cookies.size > 0) {
      headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    }
    if (this.bearer) headers.Authorization = `Bearer ${this.bearer}`;
    const url = new URL(path, this.baseUrl);
    const body = opts.json !== undefined ? JSON.stringify(opts.json) : opts.body;
    const res =
      this.transport === "node-http"
        ? await nodeHttpRequest(url, { method, headers, body, maxBodyBytes: this.maxBodyBytes })
        : await fetch(url, { method, headers, body, redirect: "manual" }).then(async (r) => ({
            status: r.status,
            headers: r.headers,
            text: await r.text(),
            truncated: false,
          }));
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === "" || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = res.text;
    let parsed: Json = text;
    if (!res.truncated && res.headers.get("content-type")?.includes("application/json")) {
      parsed = JSON.parse(text);
      checkApiResponse(method, url, res.status, parsed);
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get<T = Json>(path: string, opts?: Parameters<ApiClient["request"]>[2]) {
    return this.request<T>("GET", path, opts);
  }
  post<T = Json>(path: string, json?: unknown, opts?: Parameters<ApiClient["request"]>[2]) {
    return this.request<T>("POST", path, { ...opts, json });
  }
  put<T = Json>(path: string, json?: unknown, opts?: Parameters<ApiClient["request"]>[2]) {
    return this.request<T>("PUT", path, { ...opts, json });
  }
  patch<T = Json>(path: string, json?: unknown, opts?: Parameters<ApiClient["request"]>[2]) {
    return this.request<T>("PATCH", path, { ...opts, json });
  }
  delete<T = Json>(path: string, opts?: Parameters<ApiClient["request"]>[2]) {
    return this.request<T>("DELETE", path, opts);
  }
}
