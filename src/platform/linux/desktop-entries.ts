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
