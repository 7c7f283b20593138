import { useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";

export interface JudgeShortcutTargets {
  /** The next submission in the queue (skip), if any. */
  next: string | null;
  /** The one before it, if any. */
  previous: string | null;
  /** The current submission's file, opened in a new tab. */
  file: string | null;
  /** The score input's id. */
  scoreInput: string;
}

/**
 * The physical keys (KeyboardEvent.code, so an Arabic or AZERTY layout presses the same keys) and what
 * they do in the judge's workspace. Enter is the form's own: it saves and opens the next submission.
 */
export const judgeShortcuts = [
  { code: "Enter", key: "Enter", does: "save the score and open the next" },
  { code: "KeyS", key: "S", does: "skip to the next submission" },
  { code: "KeyB", key: "B", does: "back to the previous one" },
  { code: "KeyF", key: "F", does: "open the file in a new tab" },
  { code: "KeyE", key: "E", does: "type the score" },
  { code: "Escape", key: "Esc", does: "leave the comment, so the letters work" },
] as const;

/**
 * A field where a letter is text (the comment, a select's type-ahead). The score box is not: a number
 * input takes no letters, so the shortcuts work there too and a judge can type a score, then skip.
 */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return target.type !== "number";
  return target.isContentEditable || ["TEXTAREA", "SELECT"].includes(target.tagName);
}

/** Listens for the workspace's shortcuts while the page is open (letters only outside text fields). */
export function useJudgeShortcuts(targets: JudgeShortcutTargets): void {
  const navigate = useNavigate();
  const current = useRef(targets);
  useEffect(() => {
    current.current = targets;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.metaKey || event.altKey) return;
      const { next, previous, file, scoreInput } = current.current;
      if (isTyping(event.target)) {
        if (event.code === "Escape") (event.target as HTMLElement).blur();
        return;
      }
      const go = (href: string | null) => {
        if (!href) return;
        event.preventDefault();
        navigate(href);
      };
      switch (event.code) {
        case "KeyS":
          return go(next);
        case "KeyB":
          return go(previous);
        case "KeyF":
          if (file) {
            event.preventDefault();
            window.open(file, "_blank", "noopener");
          }
          return;
        case "KeyE": {
          const input = document.getElementById(scoreInput);
          if (input instanceof HTMLInputElement) {
            event.preventDefault();
            input.focus();
            input.select();
          }
          return;
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [navigate]);
}
