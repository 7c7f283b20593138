import { useNavigate } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";
import { ActionLink, type ActionVariant } from "~/components/ui/action-button";

export function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

/**
 * A link that waits `delayMs` (the 800 ms step transition) before navigating, calling
 * `onLeave` first so the page can play its exit. A real link: without JavaScript it just navigates;
 * under reduced motion there is no wait.
 */
export function DelayedLink({
  to,
  delayMs = 800,
  onLeave,
  variant,
  children,
}: {
  to: string;
  delayMs?: number;
  onLeave?: () => void;
  variant?: ActionVariant;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  function onClick(event: MouseEvent<HTMLAnchorElement>) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (prefersReducedMotion()) return navigate(to);
    onLeave?.();
    setTimeout(() => navigate(to), delayMs);
  }
  return (
    <ActionLink to={to} onClick={onClick} variant={variant}>
      {children}
    </ActionLink>
  );
}
