import { describe, expect, it } from "vitest";
import { isConfirmationStep } from "~/lib/confirmation";
import { requireConfirmation } from "./confirm.server";

function form(entries: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(entries)) fd.append(k, v);
  return fd;
}

describe("requireConfirmation", () => {
  it("lets a confirmed form through", () => {
    expect(
      requireConfirmation(form({ intent: "delete", id: "3", confirmed: "1" }), {
        message: "Wirklich löschen?",
      }),
    ).toBeNull();
  });

  it("answers an unconfirmed form with the confirmation step and its fields", () => {
    const fd = form({ intent: "delete", id: "3", confirmed: "0" });
    fd.append("file", new Blob(["x"]), "x.txt");
    const step = requireConfirmation(fd, { message: "Wirklich löschen?", title: "Code löschen" });
    expect(step).not.toBeNull();
    expect(step?.init?.status).toBe(200);
    expect(step?.data).toEqual({
      confirmation: {
        title: "Code löschen",
        message: "Wirklich löschen?",
        confirmLabel: "Bestätigen",
        fields: { intent: "delete", id: "3" },
      },
    });
    expect(isConfirmationStep(step?.data)).toBe(true);
  });

  it("uses the spec's default title", () => {
    const step = requireConfirmation(form({ id: "1" }), { message: "Sicher?" });
    expect(step?.data.confirmation.title).toBe("Bestätigung");
  });

  it("recognises only confirmation answers", () => {
    expect(isConfirmationStep(undefined)).toBe(false);
    expect(isConfirmationStep({ ok: true })).toBe(false);
    expect(isConfirmationStep({ confirmation: { message: "x" } })).toBe(false);
  });
});
