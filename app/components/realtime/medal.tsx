import { themeArt } from "~/components/art/theme-art";

export type MedalPlace = 1 | 2 | 3;

const medals: Record<MedalPlace, { name: string; ordinal: string }> = {
  1: { name: "Gold", ordinal: "1st" },
  2: { name: "Silver", ordinal: "2nd" },
  3: { name: "Bronze", ordinal: "3rd" },
};

export function isMedalPlace(rank: number): rank is MedalPlace {
  return rank === 1 || rank === 2 || rank === 3;
}

/** A podium medal image (the top 3 carry medal images); original art in public/theme/. */
export function Medal({ place, className }: { place: MedalPlace; className?: string }) {
  const medal = medals[place];
  return (
    <img
      className={["medal", `medal--${medal.name.toLowerCase()}`, className].filter(Boolean).join(" ")}
      src={themeArt.medal(place)}
      width={36}
      height={43}
      alt={`${medal.ordinal} place, ${medal.name.toLowerCase()} medal`}
    />
  );
}
