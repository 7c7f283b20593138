/** Original SVG art, one motif per gate (1 to 5); decorative. */
export function GateArt({ gate, className }: { gate: number; className?: string }) {
  const hue = [190, 150, 30, 265, 45][(gate - 1) % 5] ?? 190;
  const stroke = `hsl(${hue} 90% 70%)`;
  const fill = `hsl(${hue} 60% 18%)`;
  return (
    <svg className={className} viewBox="0 0 200 240" aria-hidden="true" focusable="false">
      <defs>
        <radialGradient id={`gate-glow-${gate}`} cx="50%" cy="60%" r="60%">
          <stop offset="0%" stopColor={`hsl(${hue} 95% 65%)`} stopOpacity="0.85" />
          <stop offset="100%" stopColor={fill} stopOpacity="0" />
        </radialGradient>
      </defs>
      <rect x="0" y="0" width="200" height="240" fill={`url(#gate-glow-${gate})`} />
      {/* The arch and its pillars. */}
      <path d="M30 230 V100 A70 70 0 0 1 170 100 V230" fill={fill} stroke={stroke} strokeWidth="4" />
      <path d="M55 230 V108 A45 45 0 0 1 145 108 V230" fill="#050816" stroke={stroke} strokeWidth="2" opacity="0.9" />
      {Array.from({ length: gate }, (_, index) => (
        <circle key={index} cx={100 - (gate - 1) * 9 + index * 18} cy="52" r="5" fill={stroke} />
      ))}
      {gate === 1 ? <path d="M100 140 l14 28 h-28z" fill="none" stroke={stroke} strokeWidth="3" /> : null}
      {gate === 2 ? <path d="M80 130 h40 v20 h-30 v20 h30 v20 h-40" fill="none" stroke={stroke} strokeWidth="3" /> : null}
      {gate === 3 ? <path d="M78 190 h44 l-8 -22 h-28z M100 168 v-34 M88 140 h24" fill="none" stroke={stroke} strokeWidth="3" /> : null}
      {gate === 4 ? <path d="M70 150 q30 40 60 0 M78 175 q22 26 44 0" fill="none" stroke={stroke} strokeWidth="3" /> : null}
      {gate === 5 ? <path d="M74 185 l8 -40 l18 20 l18 -20 l8 40z" fill="none" stroke={stroke} strokeWidth="3" /> : null}
    </svg>
  );
}
