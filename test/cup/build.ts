// Small builders for hand-made envelopes in the CUP tests.
import { readFileSync } from 'node:fs';
import { toCompact, type CompactOptions } from '../../src/cup/compact.js';
import type { CupEnvelope, CupNode, CupRole } from '../../src/cup/types.js';

/** A node `e<id>`; `role` is a plain string because several tests feed roles outside the schema. */
export function node(id: number, role: string, name = '', extra: Partial<CupNode> = {}): CupNode {
  return { id: `e${id}`, role: role as CupRole, name, ...extra };
}

/** An envelope on a 1000x800 screen with no app. */
export function envelope(tree: CupNode[], extra: Partial<CupEnvelope> = {}): CupEnvelope {
  return { version: '0.1.0', platform: 'linux', screen: { w: 1000, h: 800 }, tree, ...extra };
}

/** The lines after the header's blank line (node and hint lines, plus any footer). */
export function bodyLines(text: string): string[] {
  const lines = text.split('\n');
  return lines.slice(lines.indexOf('') + 1, -1);
}

/** The compact body for a tree on the default envelope. */
export function compactBody(tree: CupNode[], options: CompactOptions = {}): string[] {
  return bodyLines(toCompact(envelope(tree), options));
}

export function fixture(name: string): string {
  return readFileSync(new URL(`../../../test/fixtures/cup/${name}`, import.meta.url), 'utf8');
}

export function exampleEnvelope(): CupEnvelope {
  return JSON.parse(fixture('example.json')) as CupEnvelope;
}
