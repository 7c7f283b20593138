import { forwardRef, type ButtonHTMLAttributes } from "react";
import { AppLink, type AppLinkProps } from "~/components/ui/app-link";

export type ActionVariant = "primary" | "danger" | "subtle";

function actionClass(variant: ActionVariant, className?: string) {
  return ["action-button", variant === "primary" ? null : `action-button--${variant}`, className]
    .filter(Boolean)
    .join(" ");
}

export type ActionButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ActionVariant };

/** The bordered game-style button. A plain <button>: every native prop passes through. */
export const ActionButton = forwardRef<HTMLButtonElement, ActionButtonProps>(function ActionButton(
  { variant = "primary", className, ...props },
  ref,
) {
  return <button ref={ref} className={actionClass(variant, className)} {...props} />;
});

export type ActionLinkProps = AppLinkProps & { variant?: ActionVariant };

/** A link to a page of this app (an AppLink) with the ActionButton look, for navigation that must work without JavaScript. */
export const ActionLink = forwardRef<HTMLAnchorElement, ActionLinkProps>(function ActionLink(
  { variant = "primary", className, ...props },
  ref,
) {
  return <AppLink ref={ref} className={actionClass(variant, className)} {...props} />;
});
