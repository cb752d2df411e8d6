import { describe, expect, it } from "vitest";
import { validateForgotPassword, validateLogin, validateRegister, validateResetPassword } from "../../src/features/auth/auth-validation.ts";
import { emptyConsultationForm, validateConsultation } from "../../src/features/consultation/consultation-validation.ts";
import { hasSeenWelcomeVideo, markWelcomeVideoSeen } from "../../src/lib/welcome-video-flag.ts";

const register = { username: "ann", email: "ann@example.com", name: "Ann", password: "secret1", confirmPassword: "secret1" };

describe("login and registration", () => {
  it("login needs both fields", () => {
    expect(validateLogin({ username: "", password: "x" })).toBe("Please fill in all fields");
    expect(validateLogin({ username: "  ", password: "x" })).toBe("Please fill in all fields");
    expect(validateLogin({ username: "ann", password: "" })).toBe("Please fill in all fields");
    expect(validateLogin({ username: "ann", password: "x" })).toBeNull();
  });

  it("registration: required, then match, then length", () => {
    for (const field of ["username", "email", "name", "password"] as const) {
      expect(validateRegister({ ...register, [field]: "" })).toBe("Please fill in all fields");
    }
    expect(validateRegister({ ...register, confirmPassword: "secret2" })).toBe("Passwords do not match");
    expect(validateRegister({ ...register, password: "abc", confirmPassword: "abc" })).toBe("Password must be at least 6 characters long");
    expect(validateRegister({ ...register, password: "abcdef", confirmPassword: "abcdef" })).toBeNull();
  });
});

describe("forgot and reset password", () => {
  it("asks for the email", () => {
    expect(validateForgotPassword({ email: " " })).toBe("Please enter your email address");
    expect(validateForgotPassword({ email: "a@example.com" })).toBeNull();
  });

  it("reset: required, match, length", () => {
    const ok = { token: "t", newPassword: "secret1", confirmPassword: "secret1" };
    expect(validateResetPassword({ ...ok, token: "" })).toBe("Please fill in all fields");
    expect(validateResetPassword({ ...ok, confirmPassword: "" })).toBe("Please fill in all fields");
    expect(validateResetPassword({ ...ok, confirmPassword: "secret2" })).toBe("Passwords do not match");
    expect(validateResetPassword({ token: "t", newPassword: "abc", confirmPassword: "abc" })).toBe("Password must be at least 6 characters long");
    expect(validateResetPassword(ok)).toBeNull();
  });
});

describe("consultation form", () => {
  const filled = { ...emptyConsultationForm, name: "Ann Lee", email: "ann@example.com", phone: "(555) 123-4567" };

  it("name, email and phone are required, with one message", () => {
    for (const field of ["name", "email", "phone"] as const) {
      expect(validateConsultation({ ...filled, [field]: "  " })).toEqual({
        ok: false,
        message: "Please fill in all required fields",
        field,
      });
    }
  });

  it("explains a malformed email before sending", () => {
    expect(validateConsultation({ ...filled, email: "not-an-email" })).toMatchObject({ ok: false, field: "email" });
  });

  it("leaves blank optional fields out", () => {
    const result = validateConsultation(filled);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.input).toEqual({ name: "Ann Lee", email: "ann@example.com", phone: "(555) 123-4567", message: "" });
  });

  it("keeps chosen options", () => {
    const result = validateConsultation({ ...filled, service: "tax-prep", preferredTime: "evening", preferredDate: "2030-01-15" });
    expect(result.ok && result.input).toMatchObject({ service: "tax-prep", preferredTime: "evening", preferredDate: "2030-01-15" });
  });
});

describe("welcome video flag", () => {
  it("is read and written as hasSeenWelcomeVideo", () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(hasSeenWelcomeVideo(storage)).toBe(false);
    markWelcomeVideoSeen(storage);
    expect(store.get("hasSeenWelcomeVideo")).toBe("true");
    expect(hasSeenWelcomeVideo(storage)).toBe(true);
  });
});
