import { useId } from "react";

const CLOAK =
  "M120 18 C94 18 78 40 76 72 C58 86 46 104 44 132 C40 206 34 300 26 390 " +
  "L52 384 L74 391 L98 385 L120 392 L142 385 L166 391 L188 384 L214 390 " +
  "C206 300 200 206 196 132 C194 104 182 86 164 72 C162 40 146 18 120 18 Z";

/**
 * An original stone guardian: a hooded knight resting both hands on a sword, standing on a
 * rune-carved plinth. Monochrome stone lit from the upper left, with a faint cyan rune glow.
 * Purely decorative: always aria-hidden.
 *
 * Gradient and filter ids come from useId so several statues can share a page.
 */
export function Statue({ className }: { className?: string }) {
  // useId yields ":r1:"; colons are legal in fragments but some engines dislike them in url().
  const uid = useId().replace(/:/g, "");
  const id = (name: string) => `${uid}-${name}`;
  const url = (name: string) => `url(#${id(name)})`;

  return (
    <svg
      className={className}
      viewBox="0 0 240 480"
      preserveAspectRatio="xMidYMax meet"
      aria-hidden="true"
      focusable="false"
    >
      <defs>
        {/* Stone: cool grey, light on the left, falling into shadow on the right. */}
        <linearGradient id={id("stone")} x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stopColor="#9aa4b8" />
          <stop offset="0.38" stopColor="#7a8399" />
          <stop offset="0.72" stopColor="#4e566b" />
          <stop offset="1" stopColor="#2a3042" />
        </linearGradient>
        <linearGradient id={id("stone-v")} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#8c96ab" />
          <stop offset="1" stopColor="#3b4256" />
        </linearGradient>
        <linearGradient id={id("cloak")} x1="0" y1="0" x2="1" y2="0.15">
          <stop offset="0" stopColor="#818aa0" />
          <stop offset="0.3" stopColor="#646d84" />
          <stop offset="0.65" stopColor="#40475b" />
          <stop offset="1" stopColor="#1f2433" />
        </linearGradient>
        <linearGradient id={id("robe")} x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stopColor="#6f788e" />
          <stop offset="0.5" stopColor="#5a6278" />
          <stop offset="1" stopColor="#343b4e" />
        </linearGradient>
        <linearGradient id={id("armor")} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#b2bccd" />
          <stop offset="0.45" stopColor="#7e889d" />
          <stop offset="1" stopColor="#3a4154" />
        </linearGradient>
        <linearGradient id={id("blade")} x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stopColor="#c6cfdd" />
          <stop offset="0.5" stopColor="#8c96aa" />
          <stop offset="0.51" stopColor="#5c6479" />
          <stop offset="1" stopColor="#3d4457" />
        </linearGradient>
        <linearGradient id={id("ground-shade")} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#000" stopOpacity="0" />
          <stop offset="1" stopColor="#050817" stopOpacity="0.55" />
        </linearGradient>
        <radialGradient id={id("face")} cx="0.5" cy="0.35" r="0.6">
          <stop offset="0" stopColor="#05070f" />
          <stop offset="0.8" stopColor="#0e1322" />
          <stop offset="1" stopColor="#262c3d" />
        </radialGradient>
        <radialGradient id={id("aura")} cx="0.5" cy="0.5" r="0.5">
          <stop offset="0" stopColor="#5ee1ff" stopOpacity="0.35" />
          <stop offset="1" stopColor="#5ee1ff" stopOpacity="0" />
        </radialGradient>
        <clipPath id={id("cloak-clip")}>
          <path d={CLOAK} />
        </clipPath>
        {/* Soft cyan bloom for carved runes and the eyes. */}
        <filter id={id("glow")} x="-50%" y="-50%" width="200%" height="200%">
          <feGaussianBlur in="SourceGraphic" stdDeviation="2.2" result="blur" />
          <feMerge>
            <feMergeNode in="blur" />
            <feMergeNode in="blur" />
            <feMergeNode in="SourceGraphic" />
          </feMerge>
        </filter>
        {/* Fine grain so the surfaces read as stone rather than plastic. */}
        <filter id={id("grain")} x="0" y="0" width="100%" height="100%">
          <feTurbulence type="fractalNoise" baseFrequency="0.85" numOctaves="2" seed="7" result="noise" />
          <feColorMatrix
            in="noise"
            type="matrix"
            values="0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  0 0 0 0.32 0"
            result="speckle"
          />
          <feComposite in="speckle" in2="SourceGraphic" operator="in" result="grainOnShape" />
          <feMerge>
            <feMergeNode in="SourceGraphic" />
            <feMergeNode in="grainOnShape" />
          </feMerge>
        </filter>
      </defs>

      {/* Halo of old magic behind the figure. */}
      <ellipse cx="120" cy="150" rx="110" ry="150" fill={url("aura")} opacity="0.55" />

      <g filter={url("grain")}>
        {/* ---------- Plinth ---------- */}
        <path d="M10 452 H230 L236 478 H4 Z" fill={url("stone-v")} />
        <path d="M10 452 H230 L232 458 H8 Z" fill="#a3adc0" opacity="0.55" />
        <rect x="30" y="402" width="180" height="52" fill={url("stone")} />
        <rect x="30" y="402" width="180" height="6" fill="#0b0f1a" opacity="0.35" />
        <path d="M18 388 H222 L226 404 H14 Z" fill={url("stone-v")} />
        <path d="M18 388 H222 L223 392 H17 Z" fill="#b8c1d2" opacity="0.6" />
        {/* Chipped corner and a hairline crack in the base step. */}
        <path d="M210 402 L204 414 L210 420 Z" fill="#1b2030" opacity="0.7" />
        <path d="M40 476 L46 466 L42 458" fill="none" stroke="#1b2030" strokeWidth="1.2" opacity="0.7" />

        {/* ---------- Cloak (back layer) ---------- */}
        <path d={CLOAK} fill={url("cloak")} />
        {/* Cloak folds. */}
        <g fill="none" strokeLinecap="round">
          <path d="M58 160 C54 240 50 320 46 386" stroke="#a5aec0" strokeWidth="2" opacity="0.35" />
          <path d="M70 200 C68 270 66 330 64 388" stroke="#2a3042" strokeWidth="3" opacity="0.55" />
          <path d="M180 170 C184 250 188 320 194 386" stroke="#151a27" strokeWidth="3" opacity="0.6" />
          <path d="M168 220 C170 290 172 340 176 388" stroke="#596177" strokeWidth="1.6" opacity="0.5" />
        </g>

        {/* ---------- Inner robe, seen through the open cloak ---------- */}
        <path
          d="M86 240 C84 300 80 350 76 390 L98 386 L120 392 L142 386 L164 390
             C160 350 156 300 154 240 Z"
          fill={url("robe")}
        />
        <g fill="none" stroke="#2c3244" strokeWidth="2" strokeLinecap="round" opacity="0.65">
          <path d="M98 262 C96 310 94 350 92 386" />
          <path d="M142 262 C144 310 146 350 148 386" />
        </g>
        <path d="M108 270 C107 320 106 352 105 388" stroke="#9ea8bb" strokeWidth="1.4" fill="none" opacity="0.4" />

        {/* ---------- Torso armour ---------- */}
        <path d="M90 118 H150 L156 236 C146 252 132 258 120 260 C108 258 94 252 84 236 Z" fill={url("armor")} />
        <path d="M90 118 H150 L151 128 H89 Z" fill="#0b0f1a" opacity="0.3" />
        {/* Belt. */}
        <path d="M84 226 C100 236 140 236 156 226 L157 240 C140 250 100 250 83 240 Z" fill="#3a4154" />
        <rect x="112" y="230" width="16" height="14" rx="2" fill="#8d97ab" stroke="#2a3042" strokeWidth="1" />

        {/* ---------- Pauldrons ---------- */}
        <path d="M62 128 C64 106 80 96 100 98 C104 108 104 120 98 132 C86 140 72 140 62 128 Z" fill={url("armor")} />
        <path d="M64 126 C72 134 86 134 96 128" stroke="#2a3042" strokeWidth="1.5" fill="none" opacity="0.6" />
        <path d="M178 128 C176 106 160 96 140 98 C136 108 136 120 142 132 C154 140 168 140 178 128 Z" fill={url("stone")} />
        <path d="M176 126 C168 134 154 134 144 128" stroke="#151a27" strokeWidth="1.5" fill="none" opacity="0.7" />

        {/* ---------- Arms reaching to the hilt ---------- */}
        <path d="M68 134 C64 160 74 188 104 204 L114 190 C96 178 88 158 92 136 Z" fill={url("cloak")} />
        <path d="M172 134 C176 160 166 188 136 204 L126 190 C144 178 152 158 148 136 Z" fill="#3a4154" />

        {/* ---------- Sword ---------- */}
        {/* Blade, point resting on the plinth. */}
        <path d="M113 212 H127 L126 372 L120 390 L114 372 Z" fill={url("blade")} />
        <path d="M120 214 V370" stroke="#5ee1ff" strokeWidth="1.2" opacity="0.45" filter={url("glow")} />
        {/* Crossguard. */}
        <path
          d="M88 202 C96 198 108 200 120 200 C132 200 144 198 152 202 C150 208 146 210 140 210 H100 C94 210 90 208 88 202 Z"
          fill={url("armor")}
        />
        <circle cx="120" cy="205" r="4" fill="#5ee1ff" opacity="0.7" filter={url("glow")} />
        {/* Grip and pommel. */}
        <rect x="116" y="166" width="8" height="34" rx="2" fill="#3a4154" />
        <circle cx="120" cy="162" r="7" fill={url("armor")} />

        {/* Gauntlets wrapped over the grip. */}
        <path d="M102 180 C104 172 114 170 122 174 L122 196 C114 200 104 198 100 192 Z" fill={url("armor")} />
        <path d="M138 180 C136 172 126 170 118 174 L118 196 C126 200 136 198 140 192 Z" fill={url("stone")} />
        <path d="M104 184 H120 M104 190 H120" stroke="#2a3042" strokeWidth="1" opacity="0.6" />

        {/* ---------- Hood ---------- */}
        <path
          d="M120 24 C98 24 84 42 82 70 C80 92 88 110 100 120 C108 114 114 112 120 112
             C126 112 132 114 140 120 C152 110 160 92 158 70 C156 42 142 24 120 24 Z"
          fill={url("cloak")}
        />
        {/* Light catching the hood's left crown. */}
        <path d="M94 40 C86 54 84 74 88 96" stroke="#b4bdcf" strokeWidth="2" fill="none" opacity="0.45" strokeLinecap="round" />
        {/* Rim of the hood opening. */}
        <path
          d="M120 42 C100 42 92 60 92 80 C92 100 104 114 120 118 C136 114 148 100 148 80 C148 60 140 42 120 42 Z"
          fill="#2a3042"
        />
        <path d="M120 42 C100 42 92 60 92 80 C92 92 96 102 102 109" stroke="#aab3c6" strokeWidth="1.4" fill="none" opacity="0.5" />
        {/* The shadowed face. */}
        <path
          d="M120 46 C104 46 96 62 96 80 C96 98 106 110 120 114 C134 110 144 98 144 80 C144 62 136 46 120 46 Z"
          fill={url("face")}
        />
        {/* Eyes: two faint embers of cyan. */}
        <g filter={url("glow")} fill="#8cf0ff">
          <ellipse cx="111" cy="82" rx="3.2" ry="1.6" opacity="0.85" />
          <ellipse cx="129" cy="82" rx="3.2" ry="1.6" opacity="0.85" />
        </g>

        {/* Ground contact shadow over the lower robe, kept inside the cloak's outline. */}
        <rect x="20" y="330" width="200" height="62" fill={url("ground-shade")} clipPath={url("cloak-clip")} />
      </g>

      {/* ---------- Carved runes (drawn after the grain so they stay crisp) ---------- */}
      <g
        fill="none"
        stroke="#5ee1ff"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
        filter={url("glow")}
        opacity="0.75"
      >
        {/* Chest sigil. */}
        <path d="M120 132 L123 139 L120 146 L117 139 Z" />
        {/* Plinth runes. */}
        <path d="M52 416 V440 M52 420 L60 428 M52 430 L60 438" />
        <path d="M80 416 L88 440 L96 416" />
        <path d="M112 416 V440 M112 416 L122 424 L112 432" />
        <path d="M134 416 H144 L134 440 H144" />
        <path d="M162 416 V440 M162 428 H172 M172 416 V440" />
        <path d="M190 418 L196 428 L190 438" />
      </g>
    </svg>
  );
}
