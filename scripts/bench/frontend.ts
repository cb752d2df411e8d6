// The landing page's weight as a browser first loads it: the JS and CSS that index.html references
// (entry script, modulepreloads, stylesheets), gzip-compressed as the server sends them; every other
// script of the build is a lazily loaded chunk. Then Lighthouse, when the package is installed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { repoRoot } from "./processes.ts";

export type BundleSizes = {
  initialJsGzip: number;
  initialCssGzip: number;
  /** What a browser that accepts brotli downloads: the build's precompressed .br files (vite.config.ts). */
  initialJsBrotli: number | null;
  lazyChunks: number;
  lazyJsGzip: number;
  initialFiles: string[];
};

export function buildClient(outDir: string): void {
  execFileSync(
    process.execPath,
    [path.join(repoRoot, "node_modules/vite/bin/vite.js"), "build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "error"],
    {
      cwd: repoRoot,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file)).length;

export function measureBundle(clientDir: string): BundleSizes {
  const html = fs.readFileSync(path.join(clientDir, "index.html"), "utf8");
  const referenced = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const initial = [...new Set(referenced)];
  const file = (ref: string) => path.join(clientDir, ref);
  const sum = (refs: string[]) => refs.reduce((total, ref) => total + gzipSize(file(ref)), 0);
  const lazy = fs
    .readdirSync(path.join(clientDir, "assets"))
    .filter((name) => name.endsWith(".js"))
    .map((name) => `/assets/${name}`)
    .filter((ref) => !initial.includes(ref));
  const initialJs = initial.filter((r) => r.endsWith(".js"));
  const brotliFiles = initialJs.map((ref) => `${file(ref)}.br`);
  return {
    initialJsGzip: sum(initialJs),
    initialJsBrotli: brotliFiles.every((f) => fs.existsSync(f)) ? brotliFiles.reduce((total, f) => total + fs.statSync(f).size, 0) : null,
    initialCssGzip: sum(initial.filter((r) => r.endsWith(".css"))),
    lazyChunks: lazy.length,
    lazyJsGzip: sum(lazy),
    initialFiles: initial,
  };
}

export type LighthouseScores = { performance: number; accessibility: number; bestPractices: number } | { skipped: string };

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Lighthouse's default settings are the mobile ones (emulated phone, slow 4G, 4x CPU slowdown). */
export async function runLighthouse(url: string): Promise<LighthouseScores> {
  const lighthouseModule = "lighthouse";
  const launcherModule = "chrome-launcher";
  let lighthouse: (url: string, flags: object) => Promise<{ lhr: { categories: Record<string, { score: number | null }> } } | undefined>;
  let launch: (opts: object) => Promise<{ port: number; kill: () => void | Promise<void> }>;
  try {
    lighthouse = (await import(lighthouseModule)).default;
    launch = (await import(launcherModule)).launch;
  } catch {
    return { skipped: "lighthouse not installed" };
  }
  if (!fs.existsSync(CHROMIUM)) return { skipped: `no Chromium at ${CHROMIUM}` };
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices"],
    });
    const categories = result?.lhr.categories ?? {};
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    return { performance: score("performance"), accessibility: score("accessibility"), bestPractices: score("best-practices") };
  } finally {
    await chrome.kill();
  }
}
