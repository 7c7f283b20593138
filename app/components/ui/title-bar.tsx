import type { ReactNode } from "react";

/**
 * The glowing "system window" heading used at the top of screens.
 * `warning` adds a warning triangle before the text; it is decorative, the words carry the meaning.
 */
export function TitleBar({
  title,
  warning = false,
  id,
  className,
  written = false,
}: {
  title: ReactNode;
  /** The title is text people wrote (a gate's title): it takes its direction from its own content (dir="auto"). */
  written?: boolean;
  warning?: boolean;
  /** Lets a page point aria-labelledby at the heading. */
  id?: string;
  className?: string;
}) {
  return (
    <h1 id={id} className={["title-bar", warning ? "title-bar--warning" : null, className].filter(Boolean).join(" ")}>
      {warning ? <WarningIcon /> : null}
      <span className="title-bar__text" dir={written ? "auto" : undefined}>
        {title}
      </span>
    </h1>
  );
}

function WarningIcon() {
  return (
    <svg className="title-bar__icon" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
      <path
        d="M16 3.5 L29.5 27.5 H2.5 Z"
        fill="rgba(94, 225, 255, 0.12)"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinejoin="round"
      />
      <path d="M16 11.5 V19.5" stroke="currentColor" strokeWidth="2.8" strokeLinecap="round" />
      <circle cx="16" cy="23.6" r="1.7" fill="currentColor" />
    </svg>
  );
}
