// A .po catalogue as @lingui/vite-plugin compiles it on import (vite.config.ts).
declare module "*.po" {
  import type { Messages } from "@lingui/core";
  export const messages: Messages;
}
