import { describe, expect, it } from "vitest";
import {
  ChangePasswordFormSchema,
  InviteSchema,
  LoginSchema,
  passwordStrength,
  RegisterFormSchema,
  ResetPasswordFormSchema,
} from "./auth-forms";
import { fieldErrorsOf } from "./field-errors";

const errors = (result: { success: boolean; error?: unknown }) =>
  result.success ? {} : fieldErrorsOf(result.error as Parameters<typeof fieldErrorsOf>[0]);

describe("account form schemas (spec §5 messages)", () => {
  it("login: trimmed username, both required", () => {
    expect(LoginSchema.parse({ username: "  anna ", password: "x" }).username).toBe("anna");
    expect(errors(LoginSchema.safeParse({ username: "   " }))).toEqual({
      username: ["Benutzername ist erforderlich"],
      password: ["Passwort ist erforderlich"],
    });
  });

  it("registration: no audit actor name, no Latin mixed with Cyrillic or Greek", () => {
    const base = {
      invitationToken: "t",
      password: "abcdefghijkl",
      confirmPassword: "abcdefghijkl",
    };
    const usernameErrors = (username: string) =>
      errors(RegisterFormSchema.safeParse({ ...base, username })).username;
    expect(usernameErrors("System")).toEqual(["Dieser Benutzername ist reserviert."]);
    expect(usernameErrors("kommandozeile")).toEqual(["Dieser Benutzername ist reserviert."]);
    expect(usernameErrors("\u0430dmin")).toHaveLength(1);
    expect(usernameErrors("Systemadmin")).toBeUndefined();
    expect(usernameErrors("Мария")).toBeUndefined();
  });

  it("registration: 12 characters, matching confirmation, token required", () => {
    const base = { invitationToken: "t", username: "anna", password: "abcdefghijkl" };
    expect(RegisterFormSchema.safeParse({ ...base, confirmPassword: "abcdefghijkl" }).success).toBe(
      true,
    );
    expect(
      errors(RegisterFormSchema.safeParse({ ...base, confirmPassword: "abcdefghijkm" })),
    ).toEqual({
      confirmPassword: ["Passwörter stimmen nicht überein."],
    });
    expect(
      errors(
        RegisterFormSchema.safeParse({
          ...base,
          password: "abcdefghijk",
          confirmPassword: "abcdefghijk",
        }),
      ).password,
    ).toEqual(["Passwort muss mindestens 12 Zeichen lang sein."]);
    expect(
      errors(
        RegisterFormSchema.safeParse({
          ...base,
          invitationToken: undefined,
          confirmPassword: "abcdefghijkl",
        }),
      ).invitationToken,
    ).toEqual(["Kein gültiger Einladungstoken vorhanden."]);
  });

  it("reset: 12 characters and a matching confirmation", () => {
    expect(
      errors(
        ResetPasswordFormSchema.safeParse({
          token: "t",
          newPassword: "12345678901",
          confirmPassword: "12345678901",
        }),
      ).newPassword,
    ).toEqual(["Passwort muss mindestens 12 Zeichen lang sein"]);
    expect(
      errors(
        ResetPasswordFormSchema.safeParse({
          token: "t",
          newPassword: "123456789012",
          confirmPassword: "x",
        }),
      ).confirmPassword,
    ).toEqual(["Passwörter stimmen nicht überein"]);
  });

  it("change password: the four messages", () => {
    expect(errors(ChangePasswordFormSchema.safeParse({}))).toEqual({
      oldPassword: ["Aktuelles Passwort ist erforderlich"],
      newPassword: ["Neues Passwort ist erforderlich"],
      // An empty form has nothing to compare: asked for, never called a mismatch.
      confirmPassword: ["Bitte bestätigen Sie das neue Passwort."],
    });
    expect(
      errors(
        ChangePasswordFormSchema.safeParse({
          oldPassword: "a",
          newPassword: "12345678901",
          confirmPassword: "12345678901",
        }),
      ).newPassword,
    ).toEqual(["Neues Passwort muss mindestens 12 Zeichen lang sein"]);
    expect(
      errors(
        ChangePasswordFormSchema.safeParse({
          oldPassword: "a",
          newPassword: "123456789012",
          confirmPassword: "1234567890123",
        }),
      ).confirmPassword,
    ).toEqual(["Passwort-Bestätigung stimmt nicht überein"]);
  });

  it("invitation: e-mail required and valid", () => {
    expect(InviteSchema.parse({ email: " Anna@Example.com " }).email).toBe("Anna@Example.com");
    expect(errors(InviteSchema.safeParse({ email: "nope" })).email).toEqual([
      "Bitte geben Sie eine gültige E-Mail-Adresse ein!",
    ]);
  });

  it("strength indicator: 'Zu kurz' below 12 characters; beyond, only the server's verdict", () => {
    expect(passwordStrength("12345678901", "Stark")).toBe("Zu kurz");
    // Long enough but not yet rated (aaaaaaaaaaaaaa is refused by zxcvbn): never "Stark" on length.
    expect(passwordStrength("aaaaaaaaaaaaaa", null)).toBeNull();
    expect(passwordStrength("aaaaaaaaaaaaaa", "Zu schwach")).toBe("Zu schwach");
    expect(passwordStrength("Lampe-Wolke-Fahrrad-91", "Stark")).toBe("Stark");
  });
});
