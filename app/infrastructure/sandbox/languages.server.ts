/**
 * The languages a code challenge can accept (docs/domain.md "Code challenges"), each compiled and run with
 * the machine's Debian packages; the version players see is the installed package's (dpkg) on a runner's machine,
 * read once when the runner starts and reported for the pages (app/modules/code/runner-languages.server.ts).
 *
 * A compile sees the source alone in a writable box; a run sees what the compile left there, read-only.
 */
import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";

export const LANGUAGE_IDS = ["c", "cpp", "python3", "java", "javascript"] as const;
export type LanguageId = (typeof LANGUAGE_IDS)[number];

export interface Language {
  id: LanguageId;
  name: string;
  /** The file the source is written to, in the box. */
  sourceFile: string;
  /** The compile step (or a syntax check for the interpreted ones), run in the box with the source alone. */
  compile: string[];
  /** How a test is run; the memory limit in bytes given for runtimes that size their own heap. */
  run: (memoryBytes: number) => string[];
  /**
   * Whether an address-space limit suits the language: the JVM and V8 reserve gigabytes of address space they
   * never touch, and fail at start under one (their memory is the cgroup's to limit).
   */
  addressSpaceLimit: boolean;
  /** Processes (threads count) the runtime needs for itself: the JVM starts a dozen threads before main. */
  processes: number;
  /** /etc directories the runtime reads (bound read-only): the JVM's configuration lives in /etc. */
  etc: string[];
  /** The program whose Debian package names the version. */
  versionOf: string;
}

const MB = 1024 * 1024;

/** Paths resolved on the host (Debian's /usr/bin/java is a link through /etc/alternatives, which a sandbox does not see). */
const real = (file: string) => (existsSync(file) ? realpathSync(file) : file);

export function languages(): Record<LanguageId, Language> {
  const java = real("/usr/bin/java");
  const javac = real("/usr/bin/javac");
  return {
    c: {
      id: "c",
      name: "C",
      sourceFile: "main.c",
      compile: [real("/usr/bin/gcc"), "-x", "c", "-std=gnu17", "-O2", "-pipe", "-static", "-o", "main", "main.c", "-lm"],
      run: () => ["./main"],
      addressSpaceLimit: true,
      processes: 1,
      etc: [],
      versionOf: "/usr/bin/gcc",
    },
    cpp: {
      id: "cpp",
      name: "C++",
      sourceFile: "main.cpp",
      compile: [real("/usr/bin/g++"), "-x", "c++", "-std=gnu++17", "-O2", "-pipe", "-static", "-o", "main", "main.cpp"],
      run: () => ["./main"],
      addressSpaceLimit: true,
      processes: 1,
      etc: [],
      versionOf: "/usr/bin/g++",
    },
    python3: {
      id: "python3",
      name: "Python 3",
      sourceFile: "main.py",
      // A syntax error is a compilation error; the byte code is written next to the source.
      compile: [real("/usr/bin/python3"), "-I", "-m", "py_compile", "main.py"],
      run: () => [real("/usr/bin/python3"), "-I", "-S", "-B", "main.py"],
      addressSpaceLimit: true,
      processes: 1,
      etc: [],
      versionOf: "/usr/bin/python3",
    },
    java: {
      id: "java",
      name: "Java",
      sourceFile: "Main.java",
      // -proc:none: annotation processors are code run by the compiler.
      compile: [javac, "-J-Xmx256m", "-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", "-proc:none", "-encoding", "UTF-8", "-d", ".", "Main.java"],
      run: (memoryBytes) => [java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", `-Xmx${Math.max(16, Math.floor((memoryBytes * 0.75) / MB))}m`, "-Xss64m", "-cp", ".", "Main"],
      addressSpaceLimit: false,
      processes: 64,
      etc: ["/etc/java-17-openjdk"],
      versionOf: "/usr/bin/javac",
    },
    javascript: {
      id: "javascript",
      name: "JavaScript (Node.js)",
      sourceFile: "main.js",
      compile: [real("/usr/bin/node"), "--check", "main.js"],
      run: (memoryBytes) => [real("/usr/bin/node"), `--max-old-space-size=${Math.max(16, Math.floor((memoryBytes * 0.75) / MB))}`, "--stack-size=65500", "main.js"],
      addressSpaceLimit: false,
      processes: 16,
      etc: [],
      versionOf: "/usr/bin/node",
    },
  };
}

let versions: Map<LanguageId, string> | undefined;

/** "C — gcc-12 12.2.0-14+deb12u1": the Debian package that provides each language's compiler or runtime. */
export function languageVersions(): Map<LanguageId, string> {
  if (versions) return versions;
  versions = new Map();
  for (const language of Object.values(languages())) {
    try {
      const owner = execFileSync("dpkg-query", ["--search", real(language.versionOf)], { encoding: "utf8" }).split(":")[0]!.trim();
      const version = execFileSync("dpkg-query", ["--show", "--showformat=${Version}", owner], { encoding: "utf8" }).trim();
      versions.set(language.id, `${owner} ${version}`);
    } catch {
      versions.set(language.id, "not installed");
    }
  }
  return versions;
}
