/**
 * An answer's fingerprint (docs/decisions/045-integrity-signals.md): its shingles less the challenge's starter
 * code or template, hashed, then a MinHash signature and its LSH band keys. An answer with fewer than
 * MIN_SHINGLES shingles left (a number, a word, the template sent back) means nothing alone and gets none.
 * Also the evidence: which lines of two answers share their shingles. Pure.
 */
import { answerShingles, codeLines, looksLikeCode, textTokens, SHINGLE_SIZE, type AnswerKind } from "./normalize.ts";
import { bandKeys, minhash, shingleHashes } from "./minhash.ts";

/** The fewest shingles an answer keeps, after the starter's are taken out, to be compared at all. */
export const MIN_SHINGLES = 8;

export interface Fingerprint {
  kind: AnswerKind;
  shingles: number;
  signature: Uint32Array;
  bands: number[];
}

/** The shingle hashes of a starter code or template, read as the kind of the answers it is subtracted from. */
export function starterHashes(starter: string | null | undefined, kind: AnswerKind): Set<number> {
  return starter?.trim() ? shingleHashes(answerShingles(starter, kind).shingles) : new Set();
}

/** An answer's fingerprint, or null when too little of it is its own. `starter` is the challenge's starter text. */
export function fingerprint(text: string, starter?: string | null): Fingerprint | null {
  const { kind, shingles } = answerShingles(text);
  const common = starterHashes(starter, kind);
  const own = new Set([...shingleHashes(shingles)].filter((hash) => !common.has(hash)));
  if (own.size < MIN_SHINGLES) return null;
  const signature = minhash(own);
  return { kind, shingles: own.size, signature, bands: bandKeys(signature) };
}

/** One line of an answer as the evidence shows it: marked when most of its shingles are in the other answer too. */
export interface EvidenceLine {
  text: string;
  matched: boolean;
}

function lineShingles(line: string, kind: AnswerKind): Set<number> {
  const tokens = kind === "code" ? codeLines(line).flat() : textTokens(line);
  if (tokens.length === 0) return new Set();
  if (tokens.length <= SHINGLE_SIZE) return shingleHashes([tokens.join(" ")]);
  const shingles: string[] = [];
  for (let i = 0; i + SHINGLE_SIZE <= tokens.length; i++) shingles.push(tokens.slice(i, i + SHINGLE_SIZE).join(" "));
  return shingleHashes(shingles);
}

/**
 * Both answers, line by line, each line marked when at least half of its shingles (less the starter's) are found
 * in the other answer: the passages a judge compares. Lines are shown as sent (never as normalised).
 */
export function evidence(a: string, b: string, starter?: string | null): { a: EvidenceLine[]; b: EvidenceLine[] } {
  const kind: AnswerKind = looksLikeCode(a) || looksLikeCode(b) ? "code" : "text";
  const common = starterHashes(starter, kind);
  const all = (text: string) => {
    const hashes = new Set<number>();
    for (const line of text.split("\n")) for (const hash of lineShingles(line, kind)) if (!common.has(hash)) hashes.add(hash);
    return hashes;
  };
  const mark = (text: string, other: Set<number>): EvidenceLine[] =>
    text.split("\n").map((line) => {
      const own = [...lineShingles(line, kind)].filter((hash) => !common.has(hash));
      const found = own.filter((hash) => other.has(hash)).length;
      return { text: line, matched: own.length > 0 && found * 2 >= own.length };
    });
  return { a: mark(a, all(b)), b: mark(b, all(a)) };
}
