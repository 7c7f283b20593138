/**
 * The demo event that `npm run db:seed` creates (and that README lists). Instants are relative to
 * "now" so a new user always sees open gates, a closed gate with a live countdown and a running timer.
 */
import type { Category } from "../db/schema.ts";

const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;

export const demoLogins = {
  admin: { name: "admin", password: "admin-demo-2026" },
  judge: { name: "judge", password: "judge-demo-2026" },
  mentor: { name: "mentor", password: "mentor-demo-2026" },
  participantPassword: "player-demo-2026",
} as const;

export const demoTeams = ["Phoenix", "Kraken", "Griffin", "Basilisk"] as const;

/** Three participants per team: phoenix1..phoenix3 and so on. */
export function demoParticipants() {
  return demoTeams.flatMap((team) =>
    [1, 2, 3].map((n) => ({ name: `${team.toLowerCase()}${n}`, team, password: demoLogins.participantPassword })),
  );
}

/**
 * The five gates. The first three have their Arabic beside the English (docs/domain.md "Event content in two
 * languages"); the last two are English only, so an Arabic reader sees both cases.
 */
export function demoGates(now: Date) {
  const at = (offset: number) => new Date(now.getTime() + offset);
  return [
    {
      number: 1,
      title: "Gate I — The Awakening",
      description: "Your first trial: warm up your mind and your team.",
      titleAr: "البوابة الأولى — اليقظة",
      descriptionAr: "تجربتك الأولى: أيقظ ذهنك وذهن فريقك.",
      opensAt: at(-6 * HOUR),
    },
    {
      number: 2,
      title: "Gate II — The Labyrinth",
      description: "Paths twist and logic bends. Find the way through.",
      titleAr: "البوابة الثانية — المتاهة",
      descriptionAr: "تتلوّى الدروب وينحني المنطق. اعثر على طريق العبور.",
      opensAt: at(-3 * HOUR),
    },
    {
      number: 3,
      title: "Gate III — The Forge",
      description: "Build, break and rebuild. Only the strongest designs survive.",
      titleAr: "البوابة الثالثة — المِصهر",
      descriptionAr: "ابنِ واكسر ثم أعد البناء. لا يصمد إلا أقوى التصاميم.",
      opensAt: at(-10 * MINUTE),
    },
    { number: 4, title: "Gate IV — The Abyss", description: "Defend what is yours and breach what is not.", opensAt: at(2 * HOUR) },
    { number: 5, title: "Gate V — The Throne", description: "The final gate. Few have seen what lies beyond.", opensAt: at(8 * HOUR) },
  ];
}

/**
 * The two home videos: a YouTube link (played as YouTube's embed) and a small file of our own, stored in S3
 * and played from our own origin (scripts/seed-assets/README.md says how it was made).
 */
export const demoVideos = {
  youtube: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  file: { path: "seed-assets/demo-video.webm", type: "video/webm" },
} as const;

export function demoFinalAt(now: Date) {
  return new Date(now.getTime() + 30 * HOUR);
}

/** A meal schedule around now: one just past, the next within the hour, the rest later. */
export function demoMeals(now: Date) {
  const at = (offset: number) => new Date(now.getTime() + offset);
  return [
    { label: "coffebreak", at: at(-3 * HOUR) },
    { label: "dinner", at: at(45 * MINUTE) },
    { label: "icebreak", at: at(4 * HOUR) },
    { label: "breakfast", at: at(13 * HOUR) },
    { label: "icebreak", at: at(15 * HOUR) },
    { label: "lunch", at: at(18 * HOUR + 30 * MINUTE) },
    { label: "coffebreak", at: at(21 * HOUR) },
    { label: "dinner", at: at(25 * HOUR) },
  ];
}

export interface DemoChallenge {
  title: string;
  description: string;
  /** The Arabic beside the English (some challenges only: the others show their English to Arabic readers). */
  titleAr?: string;
  descriptionAr?: string;
  points: number;
  category: Category;
  difficulty: "Easy" | "Medium" | "Hard";
  hints: string;
  wave: number;
  attachment?: { name: string; type: string };
  /** Judged per criterion (the design challenges' Judging Criteria). */
  rubric?: Array<{ name: string; weight: number; maxPoints: number }>;
  /** Checked by the platform: the answers it accepts (docs/domain.md "Flag challenges"). */
  flag?: {
    answers: Array<{ kind: "exact" | "exact_ci" | "regex" | "per_team"; value: string }>;
    maxAttempts?: number;
    /** Dynamic points: from `points` down to `minimum` at `decay` solves. */
    dynamic?: { minimum: number; decay: number };
  };
  /** Hints that cost points (cost in points, text). */
  paidHints?: Array<{ cost: number; text: string }>;
  /**
   * Checked by a metric over a predictions file (docs/domain.md "Prediction challenges"): its scoring, and its hidden
   * labels, `rows` of them made by `demoLabels` (ids 1..rows).
   */
  predictions?: { metric: "accuracy" | "macro_f1" | "rmse" | "mae" | "roc_auc"; publicPercent: number; baseline: number; target: number; dailyLimit: number; rows: number };
  /**
   * Checked by tests (docs/domain.md "Code challenges"): its languages and limits; its hidden tests are
   * `demoTests`' (a .tar.gz the seed stores as an admin's upload leaves it).
   */
  code?: { languages: Array<"c" | "cpp" | "python3" | "java" | "javascript">; timeLimitMs: number; memoryLimitMb: number };
  /** Titles of the challenges a team must solve first. */
  requires?: string[];
}

export const demoChallenges: DemoChallenge[] = [
  { wave: 1, category: "PS", difficulty: "Easy", points: 100, title: "Runes of Order", description: "Sort the ancient runes so that every pair of neighbours obeys the rule of the elders.", hints: "Think about a stable sort with a custom comparator.", attachment: { name: "runes.pdf", type: "application/pdf" } },
  { wave: 1, category: "AI", difficulty: "Easy", points: 100, title: "Oracle's First Sight", description: "Train a classifier that tells guardians from wanderers using the provided features.", titleAr: "النظرة الأولى للعرّافة", descriptionAr: "درّب مصنِّفًا يميّز الحرّاس من التائهين باستعمال الخصائص المرفقة.", hints: "Start with a baseline before tuning anything." },
  { wave: 2, category: "CS", difficulty: "Medium", points: 150, title: "Sealed Scroll", description: "A message was sealed with a weak cipher. Recover the plain text.", titleAr: "اللفافة المختومة", descriptionAr: "خُتمت رسالة بشيفرة ضعيفة. استعد نصّها الأصلي.", hints: "Frequency analysis still works on old seals.", attachment: { name: "scroll.png", type: "image/png" } },
  { wave: 2, category: "GD", difficulty: "Medium", points: 150, title: "Banner of the Clan", description: "Design a banner for your team that reads well at a distance and in one colour.", hints: "Contrast first, detail last. Judged on clarity, originality and craft.", rubric: [{ name: "Clarity", weight: 2, maxPoints: 10 }, { name: "Originality", weight: 1, maxPoints: 10 }, { name: "Craft", weight: 1, maxPoints: 10 }] },
  { wave: 3, category: "AI", difficulty: "Medium", points: 200, title: "Whispering Stones", description: "Summarise the stone inscriptions into three sentences a child could understand.", hints: "Evaluate your summaries against the reference set." },
  { wave: 3, category: "PS", difficulty: "Hard", points: 200, title: "Bridge of Trials", description: "Find the minimum number of moves to cross the bridge before the torch burns out.", titleAr: "جسر المحن", descriptionAr: "جد أقلّ عدد من الخطوات لعبور الجسر قبل أن تنطفئ الشعلة.", hints: "Model it as a shortest path over states." },
  { wave: 4, category: "CS", difficulty: "Hard", points: 250, title: "Breach the Abyss", description: "Find the flaw in the gatekeeper's login service and explain how to fix it.", hints: "Look at how the service compares secrets." },
  { wave: 4, category: "GD", difficulty: "Medium", points: 250, title: "Map of the Depths", description: "Draw an information map of the abyss levels for newcomers.", hints: "Judged on hierarchy, legibility and story.", rubric: [{ name: "Hierarchy", weight: 1, maxPoints: 10 }, { name: "Legibility", weight: 1, maxPoints: 10 }, { name: "Story", weight: 1, maxPoints: 10 }] },
  // Flag challenges: the platform checks the answer at once (the demo's flags are in scripts/demo-event.ts on purpose).
  // A code challenge, judged by the runner (npm run runner) against demoTests: `print(sum(map(int, input().split())))` is accepted.
  { wave: 1, category: "PS", difficulty: "Easy", points: 100, title: "Sum at the Gate", description: "Two whole numbers a and b on one line: print a + b. Subtask small (30 %): |a|, |b| ≤ 1000; subtask large (70 %): |a|, |b| ≤ 10^18. Send a program in C, C++, Python 3, Java or JavaScript on the challenge's code page.", titleAr: "المجموع عند البوابة", descriptionAr: "عددان صحيحان a وb في سطر واحد: اطبع a + b. المهمة الفرعية small (30 ٪): |a| و|b| ≤ 1000؛ المهمة الفرعية large (70 ٪): |a| و|b| ≤ 10^18. أرسل برنامجًا بلغة C أو C++ أو Python 3 أو Java أو JavaScript من صفحة البرمجة للتحدي.", hints: "Mind the type: 10^18 + 10^18 does not fit in 32 bits.", code: { languages: ["c", "cpp", "python3", "java", "javascript"], timeLimitMs: 1000, memoryLimitMb: 256 } },
  // A prediction challenge: the labels are demoLabels' (every third id a guardian); a file of all "wanderer" scores about 0.67.
  { wave: 1, category: "AI", difficulty: "Easy", points: 120, title: "Census of the Gate", description: "Tell each traveller at the gate a guardian or a wanderer. Send a CSV with the header id,kind and a line for each id from 1 to 300 (kind: guardian or wanderer). Scored by accuracy. (Demo: every third id is a guardian.)", titleAr: "إحصاء البوابة", descriptionAr: "صنّف كل مسافر عند البوابة: حارس (guardian) أو تائه (wanderer). أرسل ملف CSV ترويسته id,kind وسطرًا لكل معرّف من 1 إلى 300. يُقيَّم بالدقة. (للتجربة: كل معرّف ثالث حارس.)", hints: "Start with the majority class: it is the baseline.", predictions: { metric: "accuracy", publicPercent: 30, baseline: 0.6, target: 1, dailyLimit: 5, rows: 300 } },
  { wave: 1, category: "CS", difficulty: "Easy", points: 100, title: "Whisper in the Logs", description: "Somewhere in the gatekeeper's logs a guard wrote the first key down. Type it in as it is written: GK{...}. (Demo: the key is GK{first_light}.)", titleAr: "همسة في السجلات", descriptionAr: "في مكان ما من سجلات حارس البوابة، كتب أحد الحرّاس المفتاح الأول. اكتبه كما هو مكتوب: GK{...}. (للتجربة: المفتاح هو GK{first_light}.)", hints: "Keys are case-sensitive here.", flag: { answers: [{ kind: "exact", value: "GK{first_light}" }] }, paidHints: [{ cost: 20, text: "The guard wrote on the first line of the log, in lower case, with an underscore." }] },
  { wave: 1, category: "CS", difficulty: "Easy", points: 50, title: "Case of the Lost Key", description: "The key was shouted across the hall, so nobody knows its case. You have three tries. (Demo: gk{open sesame}, in any case.)", hints: "Case does not matter; spaces inside the braces do.", flag: { answers: [{ kind: "exact_ci", value: "gk{open sesame}" }], maxAttempts: 3 } },
  { wave: 2, category: "CS", difficulty: "Medium", points: 150, title: "Pattern of the Serpent", description: "Every serpent's scale carries a four-digit number: any scale opens the gate. (Demo: GK{serpent-0042} or any four digits.)", hints: "Exactly four digits, nothing around them. Its points fall as more teams solve it.", flag: { answers: [{ kind: "regex", value: "GK\\{serpent-[0-9]{4}\\}" }], dynamic: { minimum: 50, decay: 4 } } },
  { wave: 3, category: "CS", difficulty: "Medium", points: 200, title: "Mirror Keys", description: "Each team's mirror shows a key of its own: another team's key opens nothing. (Demo: an admin reads each team's key in Dashboard → Attempts, per-team flags.)", hints: "Sharing keys between teams is noticed.", flag: { answers: [{ kind: "per_team", value: "GK{<hmac>}" }] }, requires: ["Whisper in the Logs"] },
  { wave: 5, category: "PS", difficulty: "Hard", points: 300, title: "The Throne's Riddle", description: "Solve the final riddle: a puzzle of weights, scales and one liar.", hints: "Divide and conquer; keep track of what each weighing tells you." },
  { wave: 5, category: "AI", difficulty: "Hard", points: 300, title: "Mind of the King", description: "Build an agent that plays the king's game better than the court's champion.", hints: "Search plus a good evaluation beats brute force." },
];

/** The demo code challenge's hidden tests (file → content): two subtasks, 30 and 70. */
export function demoTests(): Record<string, string> {
  const pairs: Record<string, Array<[bigint, bigint]>> = {
    small: [[1n, 2n], [-1000n, 1000n], [999n, 1000n]],
    large: [[10n ** 18n, 10n ** 18n], [-(10n ** 18n), 7n], [123456789012345678n, 876543210987654321n]],
  };
  const files: Record<string, string> = { "subtasks.json": JSON.stringify({ small: 30, large: 70 }) };
  for (const [subtask, tests] of Object.entries(pairs)) {
    tests.forEach(([a, b], index) => {
      files[`${subtask}/${index + 1}.in`] = `${a} ${b}\n`;
      files[`${subtask}/${index + 1}.out`] = `${a + b}\n`;
    });
  }
  return files;
}

/** A prediction challenge's hidden labels for the demo (CSV): id 1..rows, every third a guardian. */
export function demoLabels(rows: number): string {
  return `id,kind\n${Array.from({ length: rows }, (_, index) => `${index + 1},${(index + 1) % 3 === 0 ? "guardian" : "wanderer"}`).join("\n")}\n`;
}
