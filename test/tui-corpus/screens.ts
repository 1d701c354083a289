// The structure of a recorded corpus screen and a fact reader on it, with no live program: the heuristics
// run on the recorded cells exactly as the driver runs them on a live screen.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rectText } from '../../src/tui/grid.js';
import { parseSelectorOrThrow } from '../../src/tui/selector/errors.js';
import { matchSelector } from '../../src/tui/selector/match.js';
import { buildStructure } from '../../src/tui/structure/index.js';
import type { UINode } from '../../src/tui/ui-node.js';
import { gridFromVisualFrame, type VisualFrame } from '../../src/tui/visual-frame.js';
import { repositoryRoot } from '../helpers/desktop.js';
import type { ScreenReader } from './facts.js';

/** The recordings at each program's own size, and the same steps recorded at 200x50. */
export const corpusFixtures = join(repositoryRoot, 'test', 'fixtures', 'tui', 'corpus');
export const largeCorpusFixtures = join(repositoryRoot, 'test', 'fixtures', 'tui', 'corpus-200x50');

export function structureOfScreen(visual: VisualFrame, title: string): { nodes: UINode[]; focus: string | null } {
  return buildStructure(gridFromVisualFrame(visual), { title });
}

/** The recorded screen named <program>-<step>. */
export function recordedCorpusScreen(name: string, directory = corpusFixtures): VisualFrame & { program: string; note: string } {
  return JSON.parse(readFileSync(join(directory, `${name}.json`), 'utf8')) as VisualFrame & { program: string; note: string };
}

/** Every recorded corpus screen's name in a directory of recordings. */
export function recordedCorpusNames(directory = corpusFixtures): string[] {
  return readdirSync(directory).filter((file) => file.endsWith('.json')).map((file) => file.slice(0, -'.json'.length)).sort();
}

/** Facts read off a recorded screen's structure; text= terms read the recorded cells, as tui_query does. */
export function recordedReader(visual: VisualFrame, title: string): ScreenReader {
  const grid = gridFromVisualFrame(visual);
  const { nodes, focus } = buildStructure(grid, { title });
  const textOf = (node: UINode) => node.text ?? (node.bounds ? rectText(grid, node.bounds) : node.name);
  return {
    all: async (selector) => matchSelector(nodes, parseSelectorOrThrow(selector), { textOf }),
    focusId: async () => focus,
  };
}
