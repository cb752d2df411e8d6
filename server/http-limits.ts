// What one client can hold of the server: connections in all and per address, and time to send a
// request. Without these one host held 19,900 slow connections, most of the process's file
// handles (docs/deployment.md says what the reverse proxy in front must add).
import type http from "node:http";
import type { RequestHandler } from "express";
import { addressKey } from "./auth/rate-limit.ts";

export type ConnectionLimits = {
  /** Open connections in all; past it new ones are closed at once (node's server.maxConnections). */
  maxConnections: number;
  /**
   * Open connections from one address (an IPv6 /64 counts as one: a host is usually given a whole
   * one); 0 turns the cap off (behind a proxy every client has its address).
   */
  maxConnectionsPerIp: number;
  /** Time from connecting (or the previous request) to the end of the request headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request: the upload route's bound, as uploads are the longest bodies. */
  uploadTimeoutMs: number;
  /** Time to receive the body of any other request: JSON and forms of at most 1 MB. */
  bodyTimeoutMs: number;
  /**
   * Time an idle keep-alive connection stays open. A client sending on it just as it closes meets
   * a reset (docs/deployment.md: the proxy's own idle timeout stays below this one).
   */
  keepAliveTimeoutMs: number;
};

export const DEFAULT_CONNECTION_LIMITS: Omit<ConnectionLimits, "maxConnections" | "maxConnectionsPerIp"> = {
  headersTimeoutMs: 10_000,
  // 10 MB at 40 KB/s, a poor mobile link.
  uploadTimeoutMs: 5 * 60_000,
  bodyTimeoutMs: 15_000,
  // Node's own default.
  keepAliveTimeoutMs: 5_000,
};

/** Node options for http.createServer; its timeouts are checked this often. */
export function serverTimeouts(limits: ConnectionLimits): http.ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.uploadTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
  };
}

export function capConnections(server: http.Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
  if (limits.maxConnectionsPerIp <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    const address = addressKey(socket.remoteAddress ?? "");
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.maxConnectionsPerIp) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/**
 * Ends a request whose body has not fully arrived within `ms` with 408, closing the connection.
 * Node's own requestTimeout must allow a slow 10 MB upload; every other body is small, so a client
 * trickling one in holds a connection for seconds, not minutes.
 */
export function bodyDeadline(ms: number, exceptPaths: RegExp[]): RequestHandler {
  return (req, res, next) => {
    // A request without a body (every GET) has nothing left to arrive once its headers are in.
    const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
    if (!hasBody || req.complete || exceptPaths.some((path) => path.test(req.path))) {
      next();
      return;
    }
    const timer = setTimeout(() => {
      if (req.complete || res.headersSent) return;
      res.setHeader("Connection", "close");
      res.status(408).json({ detail: "The request body took too long to arrive" });
      req.socket.destroySoon();
    }, ms);
    timer.unref();
    const clear = () => clearTimeout(timer);
    req.once("end", clear);
    req.once("close", clear);
    res.once("finish", clear);
    next();
  };
}
