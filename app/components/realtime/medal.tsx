import { useId } from "react";

export type MedalPlace = 1 | 2 | 3;

const medals: Record<MedalPlace, { name: string; ordinal: string; light: string; base: string; dark: string; ribbon: string }> = {
  1: { name: "Gold", ordinal: "1st", light: "#fff2b8", base: "#f2c94c", dark: "#a8791a", ribbon: "#2b6fd6" },
  2: { name: "Silver", ordinal: "2nd", light: "#ffffff", base: "#cfd8e6", dark: "#7d8aa1", ribbon: "#7a4fd6" },
  3: { name: "Bronze", ordinal: "3rd", light: "#ffd9b0", base: "#d99a5b", dark: "#8a5326", ribbon: "#1f9d8f" },
};

export function isMedalPlace(rank: number): rank is MedalPlace {
  return rank === 1 || rank === 2 || rank === 3;
}

/** A podium medal (spec 2.10): a ribbon, a rimmed disc and the place number. Original artwork. */
export function Medal({ place, className }: { place: MedalPlace; className?: string }) {
  const medal = medals[place];
  const id = useId().replace(/:/g, "");
  const face = `${id}-face`;
  const rim = `${id}-rim`;
  return (
    <svg
      className={["medal", `medal--${medal.name.toLowerCase()}`, className].filter(Boolean).join(" ")}
      viewBox="0 0 40 48"
      width="36"
      height="43"
      role="img"
      aria-label={`${medal.ordinal} place, ${medal.name.toLowerCase()} medal`}
      focusable="false"
    >
      <defs>
        <radialGradient id={face} cx="0.38" cy="0.32" r="0.75">
          <stop offset="0" stopColor={medal.light} />
          <stop offset="0.55" stopColor={medal.base} />
          <stop offset="1" stopColor={medal.dark} />
        </radialGradient>
        <linearGradient id={rim} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={medal.light} />
          <stop offset="1" stopColor={medal.dark} />
        </linearGradient>
      </defs>
      {/* Ribbon: two crossed straps. */}
      <path d="M9 1h8l6 16h-8Z" fill={medal.ribbon} />
      <path d="M31 1h-8l-6 16h8Z" fill={medal.ribbon} opacity="0.78" />
      <path d="M13 1h2.5l5.2 14h-2.5Z" fill="#ffffff" opacity="0.35" />
      {/* Disc with a rim and an inner ring. */}
      <circle cx="20" cy="31" r="15" fill={`url(#${rim})`} />
      <circle cx="20" cy="31" r="12.2" fill={`url(#${face})`} />
      <circle cx="20" cy="31" r="9.6" fill="none" stroke={medal.dark} strokeWidth="0.9" opacity="0.55" />
      <text
        x="20"
        y="36.2"
        textAnchor="middle"
        fontFamily="Georgia, 'Times New Roman', serif"
        fontSize="14.5"
        fontWeight="700"
        fill={medal.dark}
        aria-hidden="true"
      >
        {place}
      </text>
    </svg>
  );
}
