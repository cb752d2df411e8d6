import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { Mailer } from "./mailer.ts";

export function createMailer(_config: Config, _logger: Logger): Mailer {
  return {
    async send() {
      throw new Error("Mailer not implemented yet");
    },
  };
}
