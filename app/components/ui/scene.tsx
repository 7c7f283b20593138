import type { ReactNode } from "react";
import { Statue } from "~/components/art/statue";

export type StatuePosition = "left" | "center" | "right" | "none";

/**
 * The full-screen night backdrop shared by the story screens: sky, mist and ground
 * painted with CSS gradients, the stone guardian at 5%, 50% or 95% from the left, and an
 * optional veil that fades everything to dark blue over 2 s.
 *
 * The statue keeps one element whatever its position, and `left` carries a CSS transition,
 * so a parent moves it simply by changing `statue`.
 */
export function Scene({
  statue = "center",
  fadeToDark = false,
  children,
  className,
}: {
  statue?: StatuePosition;
  fadeToDark?: boolean;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div className={["scene", fadeToDark ? "scene--dark" : null, className].filter(Boolean).join(" ")}>
      <div className="scene__backdrop" aria-hidden="true">
        <div className="scene__sky" />
        <div className="scene__stars" />
        <div className="scene__moon" />
        <div className="scene__hills" />
        <div className="scene__ground" />
        {statue === "none" ? null : (
          <div className={`scene__statue scene__statue--${statue}`} data-position={statue}>
            <Statue className="scene__statue-art" />
          </div>
        )}
        <div className="scene__mist" />
      </div>
      <div className="scene__content">{children}</div>
      <div className="scene__veil" aria-hidden="true" />
    </div>
  );
}
