import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

/** An installed application from a freedesktop .desktop file. */
export interface DesktopEntry {
  /** The desktop file id, e.g. "org.gnome.Calculator.desktop". */
  id: string;
  path: string;
  name: string;
  exec: string;
  /** Basename of the program Exec runs, e.g. "gnome-calculator". */
  program: string;
  startupWmClass?: string;
  lastModified: Date;
}

export function applicationDirectories(env: NodeJS.ProcessEnv = process.env): string[] {
  const dataHome = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  const dataDirs = (env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':').filter(Boolean);
  return [dataHome, ...dataDirs].map((dir) => join(dir, 'applications'));
}

function parseEntry(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let inMain = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('[')) {
      inMain = trimmed === '[Desktop Entry]';
      continue;
    }
    if (!inMain || trimmed.startsWith('#')) continue;
    const equals = trimmed.indexOf('=');
    if (equals > 0) fields.set(trimmed.slice(0, equals).trim(), trimmed.slice(equals + 1).trim());
  }
  return fields;
}

/** Splits an Exec value into words: whitespace separates them, double quotes group (with \\ escapes). */
export function execWords(exec: string): string[] {
  const words: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (let i = 0; i < exec.length; i++) {
    const char = exec[i]!;
    if (quoted && char === '\\' && i + 1 < exec.length) {
      current += exec[++i];
    } else if (char === '"') {
      quoted = !quoted;
      started = true;
    } else if (!quoted && /\s/.test(char)) {
      if (started) words.push(current);
      current = '';
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (started) words.push(current);
  return words;
}

/** The program an Exec line starts, skipping `env VAR=..` wrappers; field codes such as %U are not part of it. */
export function programOf(exec: string): string {
  const words = execWords(exec).filter((word) => !/^%[a-zA-Z]$/.test(word));
  let index = 0;
  if (basename(words[0] ?? '') === 'env') {
    index = 1;
    while (words[index]?.includes('=')) index++;
  }
  return basename(words[index] ?? '');
}

function walk(dir: string, prefix: string, found: Map<string, DesktopEntry>): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (!name.endsWith('.desktop')) {
      try {
        if (statSync(path).isDirectory()) walk(path, `${prefix}${name}-`, found);
      } catch {
        // A dangling link or an unreadable entry is not an application.
      }
      continue;
    }
    const id = `${prefix}${name}`;
    // Earlier directories take precedence (the user's own entries override the system's).
    if (found.has(id)) continue;
    try {
      const fields = parseEntry(readFileSync(path, 'utf8'));
      if (fields.get('Type') !== 'Application' || fields.get('NoDisplay') === 'true' || fields.get('Hidden') === 'true') continue;
      const exec = fields.get('Exec') ?? '';
      const name_ = fields.get('Name');
      if (!name_ || !exec) continue;
      found.set(id, {
        id,
        path,
        name: name_,
        exec,
        program: programOf(exec),
        startupWmClass: fields.get('StartupWMClass'),
        lastModified: statSync(path).mtime,
      });
    } catch {
      // Unreadable entries are skipped, not fatal.
    }
  }
}

/** Installed, user-visible applications from the XDG application directories. */
export function installedApplications(env: NodeJS.ProcessEnv = process.env): DesktopEntry[] {
  const found = new Map<string, DesktopEntry>();
  for (const dir of applicationDirectories(env)) walk(dir, '', found);
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** How an entry answered to a name, strongest first; launch_app reports it so a caller sees why that entry was chosen. */
export type EntryMatchKind = 'id' | 'name' | 'program' | 'substring';

export interface EntryMatch {
  entry: DesktopEntry;
  matchedBy: EntryMatchKind;
}

/** Names shorter than this never match as substrings: "ed" would pick almost any app. */
const minimumSubstringLength = 3;

/** The words Exec passes after the program, field codes left out. */
export function execOptions(entry: DesktopEntry): string[] {
  return execWords(entry.exec)
    .slice(1)
    .filter((word) => !/^%[a-zA-Z]$/.test(word));
}

/**
 * Lower is better; undefined = no match. The exact id wins ("thunar" is thunar.desktop), also as the last
 * part of a reverse-DNS id (org.xfce.thunar.desktop); then the exact Name; then the program Exec runs, where
 * an entry that runs it plainly beats one that passes options (a program's other entries, such as Thunar's
 * "Bulk Rename" = `thunar --bulk-rename`, are tools of that program, not the app); substrings come last.
 */
function matchScore(entry: DesktopEntry, wanted: string): number | undefined {
  const id = entry.id.toLowerCase();
  const bareId = id.replace(/\.desktop$/, '');
  if (bareId === wanted || id === wanted) return 0;
  if (bareId.includes('.') && bareId.slice(bareId.lastIndexOf('.') + 1) === wanted) return 1;
  const name = entry.name.toLowerCase();
  if (name === wanted) return 2;
  if (entry.program.toLowerCase() === wanted) return execOptions(entry).length === 0 ? 3 : 4;
  if (wanted.length < minimumSubstringLength) return undefined;
  if (name.includes(wanted)) return 5;
  if (bareId.includes(wanted)) return 6;
  return undefined;
}

const matchKinds: readonly EntryMatchKind[] = ['id', 'id', 'name', 'program', 'program', 'substring', 'substring'];

/**
 * The entry that best answers to a name (case-insensitive), by matchScore. Ties go to the entry whose id sorts
 * first (by code point, so the choice does not depend on the directory order or the locale).
 */
export function bestEntry(entries: readonly DesktopEntry[], name: string, options: { substrings?: boolean } = {}): EntryMatch | undefined {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return undefined;
  let best: DesktopEntry | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const entry of entries) {
    const score = matchScore(entry, wanted);
    if (score === undefined || (!options.substrings && matchKinds[score] === 'substring')) continue;
    if (score < bestScore || (score === bestScore && best !== undefined && entry.id < best.id)) [best, bestScore] = [entry, score];
  }
  return best ? { entry: best, matchedBy: matchKinds[bestScore]! } : undefined;
}

/** The field code through which Exec takes files or URLs (%U/%F: any number, %u/%f: one), if it takes any. */
export function urlFieldCode(exec: string): '%u' | '%U' | '%f' | '%F' | undefined {
  return execWords(exec).find((word): word is '%u' | '%U' | '%f' | '%F' => word === '%u' || word === '%U' || word === '%f' || word === '%F');
}
