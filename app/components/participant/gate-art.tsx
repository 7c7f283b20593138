import { themeArt } from "~/components/art/theme-art";

/** Original art, one motif per gate (1 to 5; public/theme/gate-N.svg); decorative. */
export function GateArt({ gate, className }: { gate: number; className?: string }) {
  return <img className={className} src={themeArt.gate(((gate - 1) % 5) + 1)} alt="" width={200} height={240} decoding="async" />;
}
