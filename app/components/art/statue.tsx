import { themeArt } from "./theme-art";

/**
 * The stone guardian (original art, public/theme/statue.svg): a hooded knight resting both hands on
 * a sword, on a rune-carved plinth. Purely decorative.
 */
export function Statue({ className }: { className?: string }) {
  return <img className={className} src={themeArt.statue} alt="" width={240} height={480} decoding="async" />;
}
