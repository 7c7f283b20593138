/**
 * A short two-note chime synthesised with the Web Audio API (no audio file to download), played at
 * full volume. Browsers only let audio start after the user has interacted with the page:
 * `unlockAudioOnFirstGesture` prepares the audio context on the first click or key press, and any
 * refusal is swallowed: a missing chime must never break the page.
 */

type AudioContextConstructor = typeof AudioContext;

let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  if (typeof window === "undefined") return null;
  if (context) return context;
  const Constructor: AudioContextConstructor | undefined =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioContextConstructor }).webkitAudioContext;
  if (!Constructor) return null;
  try {
    context = new Constructor();
  } catch {
    return null;
  }
  return context;
}

/** Resumes a suspended context, giving up quickly when the autoplay policy says no. */
async function ready(ctx: AudioContext): Promise<boolean> {
  if (ctx.state === "running") return true;
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 600));
  try {
    return await Promise.race([ctx.resume().then(() => ctx.state === "running"), timeout]);
  } catch {
    return false;
  }
}

/** Two bell-like notes (A5 then E6), each a sine with a soft octave partial, decaying fast. */
function schedule(ctx: AudioContext) {
  const master = ctx.createGain();
  master.gain.value = 1; // Full volume; a note's partials peak just under full scale (0.8 × 1.22).
  master.connect(ctx.destination);
  const start = ctx.currentTime + 0.02;
  const notes = [
    { frequency: 880, at: 0, length: 0.45 },
    { frequency: 1318.51, at: 0.16, length: 0.7 },
  ];
  for (const note of notes) {
    const begin = start + note.at;
    const envelope = ctx.createGain();
    envelope.gain.setValueAtTime(0.0001, begin);
    envelope.gain.exponentialRampToValueAtTime(0.8, begin + 0.012);
    envelope.gain.exponentialRampToValueAtTime(0.0001, begin + note.length);
    envelope.connect(master);
    for (const [multiple, level] of [
      [1, 1],
      [2, 0.22],
    ] as const) {
      const oscillator = ctx.createOscillator();
      const partial = ctx.createGain();
      oscillator.type = "sine";
      oscillator.frequency.value = note.frequency * multiple;
      partial.gain.value = level;
      oscillator.connect(partial).connect(envelope);
      oscillator.start(begin);
      oscillator.stop(begin + note.length + 0.05);
    }
  }
}

/** True once the user has interacted with the page (where the browser can tell us). */
function userHasInteracted(): boolean {
  const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation;
  return activation ? activation.hasBeenActive : true;
}

export async function playChime(): Promise<void> {
  try {
    // Creating a context before any interaction only earns a console warning and silence.
    if (!context && !userHasInteracted()) return;
    const ctx = audioContext();
    if (!ctx || !(await ready(ctx))) return;
    schedule(ctx);
  } catch {
    // Autoplay refused or audio unavailable: stay silent.
  }
}

/** Call once on mount; returns the cleanup. */
export function unlockAudioOnFirstGesture(): () => void {
  if (typeof window === "undefined") return () => {};
  const events = ["pointerdown", "keydown", "touchstart"] as const;
  const unlock = () => {
    const ctx = audioContext();
    if (ctx && ctx.state !== "running") ctx.resume().catch(() => {});
    remove();
  };
  const remove = () => events.forEach((event) => window.removeEventListener(event, unlock, true));
  events.forEach((event) => window.addEventListener(event, unlock, { capture: true, passive: true }));
  return remove;
}
