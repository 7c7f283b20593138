import { useT } from "~/components/i18n";
import { themeArt } from "~/components/art/theme-art";

export type MedalPlace = 1 | 2 | 3;

const medals: Record<MedalPlace, { name: string; alt: string }> = {
  1: { name: "gold", alt: "medal.gold" },
  2: { name: "silver", alt: "medal.silver" },
  3: { name: "bronze", alt: "medal.bronze" },
};

export function isMedalPlace(rank: number): rank is MedalPlace {
  return rank === 1 || rank === 2 || rank === 3;
}

/** A podium medal image (the top 3 carry medal images); original art in public/theme/. */
export function Medal({ place, className }: { place: MedalPlace; className?: string }) {
  const { t } = useT();
  const medal = medals[place];
  return (
    <img
      className={["medal", `medal--${medal.name}`, className].filter(Boolean).join(" ")}
      src={themeArt.medal(place)}
      width={36}
      height={43}
      alt={t(medal.alt)}
    />
  );
}
