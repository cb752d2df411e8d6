/**
 * The forgot-password dialog's three steps (docs/decisions.md, The pages) as a reducer:
 * request -> sent (server said success) -> reset (token typed, Continue) -> closed (reset done);
 * sent -> request via Try Different Email (clears email and token); reset -> sent via Back;
 * reset -> request via Request a New Link, when the link's token turns out spent.
 */
type ForgotPasswordStep = "request" | "sent" | "reset";

export type ForgotPasswordState = { step: ForgotPasswordStep; email: string; token: string };

export type ForgotPasswordEvent =
  | { type: "emailSent"; email: string }
  | { type: "continueToReset"; token: string }
  | { type: "tryDifferentEmail" }
  | { type: "back" }
  | { type: "openWithToken"; token: string }
  | { type: "startOver" }
  | { type: "resetDone" };

export const initialForgotPasswordState: ForgotPasswordState = { step: "request", email: "", token: "" };

export function forgotPasswordReducer(state: ForgotPasswordState, event: ForgotPasswordEvent): ForgotPasswordState {
  switch (event.type) {
    case "emailSent":
      return state.step === "request" ? { ...state, step: "sent", email: event.email } : state;
    case "continueToReset":
      return state.step === "sent" && event.token.trim() !== "" ? { ...state, step: "reset", token: event.token.trim() } : state;
    case "tryDifferentEmail":
      return state.step === "sent" ? initialForgotPasswordState : state;
    case "back":
      return state.step === "reset" ? { ...state, step: "sent" } : state;
    case "openWithToken":
      return { step: "reset", email: "", token: event.token.trim() };
    case "resetDone":
    case "startOver":
      return initialForgotPasswordState;
  }
}
