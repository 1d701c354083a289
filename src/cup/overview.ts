// The overview rendering (COMPACT.md "Overview"): the open windows only, no tree.
import { formatRect } from './fields.js';
import { oneLine, truncate } from './text.js';
import type { CupEnvelope, CupWindowInfo } from './types.js';

const URL_LIMIT = 80;

export function toOverview(envelope: CupEnvelope): string {
  const windows = envelope.windows ?? [];
  const lines = [
    `# CUP ${envelope.version} | ${envelope.platform} | ${envelope.screen.w}x${envelope.screen.h}`,
    `# overview | ${windows.length} windows`,
    '',
    ...windows.map(windowLine),
  ];
  return `${lines.join('\n')}\n`;
}

function windowLine(window: CupWindowInfo): string {
  // A newline inside a title would split one window over two lines.
  let line = `${window.foreground ? '* [fg] ' : '  '}${oneLine(window.title ?? '')}`;
  if (window.pid !== undefined && window.pid !== null) line += ` (pid:${window.pid})`;
  if (window.bounds) line += ` @${formatRect(window.bounds)}`;
  if (window.url) line += ` url:${oneLine(truncate(window.url, URL_LIMIT))}`;
  return line;
}
