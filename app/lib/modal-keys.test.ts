import { describe, expect, it } from "vitest";
import {
  backdropAction,
  isTypingTarget,
  modalKeyAction,
  modalZIndex,
  nextFocusIndex,
} from "./modal-keys";

const input = { tagName: "INPUT" };
const textarea = { tagName: "textarea" };
const button = { tagName: "BUTTON" };
const dialog = { tagName: "DIV" };

describe("modal key rules", () => {
  it("Enter confirms a confirm dialog and closes the others", () => {
    expect(modalKeyAction("Enter", "confirm", dialog)).toBe("confirm");
    expect(modalKeyAction("Enter", "info", dialog)).toBe("close");
    expect(modalKeyAction("Enter", "success", null)).toBe("close");
    expect(modalKeyAction("Enter", "error", dialog)).toBe("close");
  });

  it("Escape cancels a confirm dialog and closes the others", () => {
    expect(modalKeyAction("Escape", "confirm", dialog)).toBe("cancel");
    expect(modalKeyAction("Escape", "success", dialog)).toBe("close");
    expect(modalKeyAction("Escape", "error", button)).toBe("close");
    expect(modalKeyAction("Esc", "info", dialog)).toBe("close");
  });

  it("ignores Enter and Escape while typing in an input or text area", () => {
    for (const target of [input, textarea, { tagName: "SELECT" }, { isContentEditable: true }]) {
      expect(isTypingTarget(target)).toBe(true);
      expect(modalKeyAction("Enter", "confirm", target)).toBeNull();
      expect(modalKeyAction("Escape", "confirm", target)).toBeNull();
      expect(modalKeyAction("Escape", "info", target)).toBeNull();
    }
    expect(isTypingTarget(dialog)).toBe(false);
  });

  it("leaves Enter on a button to that button (Enter on 'Abbrechen' does not confirm)", () => {
    expect(modalKeyAction("Enter", "confirm", button)).toBeNull();
    expect(modalKeyAction("Enter", "confirm", { tagName: "a" })).toBeNull();
  });

  it("ignores other keys", () => {
    expect(modalKeyAction("a", "confirm", dialog)).toBeNull();
    expect(modalKeyAction(" ", "info", dialog)).toBeNull();
  });

  it("treats a backdrop click like Escape", () => {
    expect(backdropAction("confirm")).toBe("cancel");
    expect(backdropAction("error")).toBe("close");
  });
});

describe("focus trap and layering", () => {
  it("wraps Tab and Shift+Tab around", () => {
    expect(nextFocusIndex(0, 3, false)).toBe(1);
    expect(nextFocusIndex(2, 3, false)).toBe(0);
    expect(nextFocusIndex(0, 3, true)).toBe(2);
    expect(nextFocusIndex(-1, 3, false)).toBe(0);
    expect(nextFocusIndex(-1, 3, true)).toBe(2);
    expect(nextFocusIndex(0, 0, false)).toBe(-1);
  });

  it("starts at z-index 50 and stacks higher", () => {
    expect(modalZIndex(0)).toBe(50);
    expect(modalZIndex(1)).toBeGreaterThan(50);
    expect(modalZIndex(2)).toBeGreaterThan(modalZIndex(1));
  });
});
