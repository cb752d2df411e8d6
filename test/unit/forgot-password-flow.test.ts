import { describe, expect, it } from "vitest";
import {
  type ForgotPasswordEvent,
  forgotPasswordReducer,
  type ForgotPasswordState,
  initialForgotPasswordState,
} from "../../src/features/auth/forgot-password-flow.ts";

const run = (events: ForgotPasswordEvent[], from: ForgotPasswordState = initialForgotPasswordState) => events.reduce(forgotPasswordReducer, from);

describe("forgot-password steps", () => {
  it("request -> sent -> reset with the typed token", () => {
    const sent = run([{ type: "emailSent", email: "a@example.com" }]);
    expect(sent).toEqual({ step: "sent", email: "a@example.com", token: "" });
    expect(run([{ type: "continueToReset", token: " abc " }], sent)).toEqual({ step: "reset", email: "a@example.com", token: "abc" });
  });

  it("Continue without a token stays on the sent step", () => {
    const sent = run([{ type: "emailSent", email: "a@example.com" }]);
    expect(run([{ type: "continueToReset", token: "  " }], sent)).toBe(sent);
  });

  it("Try Different Email returns to request and clears email and token", () => {
    expect(run([{ type: "emailSent", email: "a@example.com" }, { type: "tryDifferentEmail" }])).toEqual(initialForgotPasswordState);
  });

  it("Back from reset returns to sent, keeping the email", () => {
    const state = run([{ type: "emailSent", email: "a@example.com" }, { type: "continueToReset", token: "t" }, { type: "back" }]);
    expect(state.step).toBe("sent");
    expect(state.email).toBe("a@example.com");
  });

  it("a reset link opens the reset step with its token from any step", () => {
    expect(run([{ type: "openWithToken", token: "tok" }])).toEqual({ step: "reset", email: "", token: "tok" });
  });

  it("a finished reset starts over", () => {
    expect(run([{ type: "openWithToken", token: "tok" }, { type: "resetDone" }])).toEqual(initialForgotPasswordState);
  });

  it("ignores events that do not belong to the current step", () => {
    expect(run([{ type: "back" }])).toBe(initialForgotPasswordState);
    expect(run([{ type: "tryDifferentEmail" }])).toBe(initialForgotPasswordState);
    expect(run([{ type: "continueToReset", token: "t" }])).toBe(initialForgotPasswordState);
  });
});
