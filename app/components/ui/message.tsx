import type { ReactNode } from "react";

export type MessageTone = "error" | "correct";

/**
 * A centred line of feedback. Errors are announced at once (role="alert");
 * success waits politely (role="status").
 */
export function Message({
  tone,
  children,
  id,
  className,
}: {
  tone: MessageTone;
  children: ReactNode;
  id?: string;
  className?: string;
}) {
  return (
    <p
      id={id}
      role={tone === "error" ? "alert" : "status"}
      className={["message", `message--${tone}`, className].filter(Boolean).join(" ")}
    >
      {children}
    </p>
  );
}
