// @ts-check
// `npm run build:server`: the server as one ES module, dist/server.js, which production runs with
// plain node (no TypeScript loader in the process: faster start, less memory). Packages stay in
// node_modules (some load files beside their own code: PGlite's WebAssembly, argon2's native
// binary); the app's own code and the migrations, imported statically, are bundled. The hashing
// and PDF-text threads are loaded by URL relative to the bundle, so they are copied beside it. app.ts finds the web
// client at ../dist/client from the bundle, which is dist/client.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Builds into `outDir` (it must lie inside the project, so that node_modules resolves). */
export async function buildServer(outDir = path.join(root, "dist")) {
  await build({
    entryPoints: [path.join(root, "server/index.ts")],
    outfile: path.join(outDir, "server.js"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
  fs.copyFileSync(path.join(root, "server/auth/argon2-worker.mjs"), path.join(outDir, "argon2-worker.mjs"));
  fs.copyFileSync(path.join(root, "server/domains/documents/pdf-text-worker.mjs"), path.join(outDir, "pdf-text-worker.mjs"));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildServer();
