/**
 * What two answers are compared on (docs/decisions/045-integrity-signals.md): a text or a piece of code made
 * into tokens after the differences a copier makes for free are taken away — white space, case, comments,
 * Arabic letter forms and diacritics, and for code the names of identifiers. Pure: shared by the worker, the
 * judge workspace's marked passages, the tests and the bench.
 */

/** Harakat (fathatan … sukun, the Quranic marks up to U+065F), the superscript alef, and tatweel. */
const ARABIC_MARKS = /\u0640|[\u064B-\u065F\u0670\u06D6-\u06ED]/g;

/**
 * One form per Arabic letter whose variants writers use interchangeably: the alef with hamza above or below,
 * with madda, the wasla → bare alef; ta marbuta → ha; alef maqsura → ya; hamza on waw or ya → the bare letter.
 */
const ARABIC_FORMS: Record<string, string> = { "\u0623": "\u0627", "\u0625": "\u0627", "\u0622": "\u0627", "\u0671": "\u0627", "\u0629": "\u0647", "\u0649": "\u064A", "\u0624": "\u0648", "\u0626": "\u064A" };
const ARABIC_FORM_LETTERS = /[\u0623\u0625\u0622\u0671\u0629\u0649\u0624\u0626]/g;

/** Compatibility forms (NFKC: Arabic presentation forms, full-width Latin), lower case, one Arabic letter form, no diacritics. */
export function foldLetters(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(ARABIC_MARKS, "")
    .replace(ARABIC_FORM_LETTERS, (letter) => ARABIC_FORMS[letter] ?? letter);
}

/** The words of a prose answer, folded: letters and digits of any script. */
export function textTokens(text: string): string[] {
  return foldLetters(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Keywords of the languages teams write in most (kept as themselves: they carry the structure). */
const KEYWORDS = new Set(
  (
    "abstract and as assert async await auto bool boolean break byte case catch char class const continue def default del delete do double " +
    "elif else enum except export extends false final finally float fn for foreach from func function global go goto if impl implements import in " +
    "include instanceof int interface is lambda let long loop match mod module mut namespace new nil none nonlocal not null or package pass print " +
    "private protected pub public raise return self short signed sizeof static str string struct super switch this throw throws true try type " +
    "typedef typeof undefined union unsigned use using var void volatile where while with yield"
  ).split(" "),
);

/** Comments of C-like languages and of Python/shell (`//`, `/* … *\/`, `#`), and string bodies kept as one token. */
export function stripComments(code: string): string {
  let out = "";
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    const next = code[i + 1];
    if (c === "/" && next === "/") {
      while (i < code.length && code[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      const end = code.indexOf("*/", i + 2);
      i = end < 0 ? code.length : end + 2;
      out += " ";
    } else if (c === "#" && !/^\s*#\s*(include|define|if|ifdef|ifndef|endif|pragma|import)\b/.test(lineFrom(code, i))) {
      while (i < code.length && code[i] !== "\n") i++;
    } else if (c === '"' || c === "'" || c === "`") {
      // A string, copied whole: a `#` or `//` inside it is not a comment.
      let j = i + 1;
      while (j < code.length && code[j] !== c && code[j] !== "\n") j += code[j] === "\\" ? 2 : 1;
      out += code.slice(i, Math.min(j + 1, code.length));
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function lineFrom(code: string, i: number): string {
  const start = code.lastIndexOf("\n", i - 1) + 1;
  return code.slice(start, i + 40);
}

/**
 * The tokens of a piece of code, line by line: keywords, operators and punctuation as themselves, every other
 * name as `$`; numbers and strings keep their values (folded), which a copier seldom changes and independent
 * answers seldom share. Renaming variables or functions changes nothing; blank and brace-only lines are left out.
 */
export function codeLines(code: string): string[][] {
  const pattern = /("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|([\p{L}_$][\p{L}\p{N}_$]*)|(\d[\w.]*)|(==|!=|<=|>=|&&|\|\||->|=>|\+\+|--|[+\-*/%=<>!&|^~?:;,.(){}[\]])/gu;
  const lines: string[][] = [];
  for (const line of foldLetters(stripComments(code)).split("\n")) {
    const tokens: string[] = [];
    for (const match of line.matchAll(pattern)) {
      if (match[1] !== undefined) tokens.push(`"${match[1].slice(1, -1).trim().replace(/\s+/g, " ")}"`);
      else if (match[2] !== undefined) tokens.push(KEYWORDS.has(match[2]) ? match[2] : "$");
      else if (match[3] !== undefined) tokens.push(match[3]);
      else tokens.push(match[4]);
    }
    if (tokens.some((token) => !/^[(){}[\];,]$/.test(token))) lines.push(tokens);
  }
  return lines;
}

/** The tokens of a piece of code as one list (see codeLines). */
export function codeTokens(code: string): string[] {
  return codeLines(code).flat();
}

/**
 * Whether an answer reads as code: at least 3 non-empty lines, half of which carry code punctuation
 * (`;{}()=`) or start with a keyword. A misjudged answer is still compared, with the other pipeline.
 */
export function looksLikeCode(text: string): boolean {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  if (lines.length < 3) return false;
  const codeLike = lines.filter((line) => /[;{}()=]/.test(line) || /^\s*(def|class|import|from|return|if|for|while|function|const|let|var)\b/.test(line)).length;
  return codeLike * 2 >= lines.length;
}

export type AnswerKind = "text" | "code";

/**
 * The shingles of an answer, as strings: a prose answer's word 4-grams; a code answer's token 4-grams within
 * each line (a line shorter than that is one shingle), so moving lines around keeps them all
 * (docs/decisions/045-integrity-signals.md).
 */
export const SHINGLE_SIZE = 4;

export function answerShingles(text: string, kind: AnswerKind = looksLikeCode(text) ? "code" : "text"): { kind: AnswerKind; shingles: Set<string> } {
  const shingles = new Set<string>();
  const add = (tokens: string[]) => {
    if (tokens.length <= SHINGLE_SIZE) shingles.add(tokens.join(" "));
    else for (let i = 0; i + SHINGLE_SIZE <= tokens.length; i++) shingles.add(tokens.slice(i, i + SHINGLE_SIZE).join(" "));
  };
  if (kind === "code") for (const line of codeLines(text)) add(line);
  else {
    const words = textTokens(text);
    if (words.length > 0) add(words);
  }
  return { kind, shingles };
}
