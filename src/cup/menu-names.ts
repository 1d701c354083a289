/** Menu names compared as people read them: case, spacing, "…" against "...", mnemonic underscores and a trailing ellipsis aside. */
export function menuNameKey(name: string): string {
  return name
    .replace(/…/g, '...')
    .replace(/_(?=\S)/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*\.\.\.$/, '')
    .toLowerCase();
}
