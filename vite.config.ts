import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";

const apiServer = "http://localhost:3000";

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // Compressed once here at the highest levels instead of on every request (server/app.ts).
    // index.html is left out: the server fills in the landing page's content per request.
    compression({
      include: /\.(m?js|css|svg|json)$/,
      algorithms: [defineAlgorithm("brotliCompress"), defineAlgorithm("gzip", { level: 9 })],
    }),
  ],
  // "@/" and "@server/" come from tsconfig.json's paths, so the aliases are written once.
  resolve: { tsconfigPaths: true },
  build: {
    // The Express server serves this folder in production.
    outDir: "dist/client",
    emptyOutDir: true,
  },
  server: {
    proxy: {
      "/api": apiServer,
      "/trpc": apiServer,
    },
  },
  preview: {
    proxy: {
      "/api": apiServer,
      "/trpc": apiServer,
    },
  },
});
