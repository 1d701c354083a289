// A text's formatting as AT-SPI reports it (Text.GetAttributeRun: "weight", "style", "underline"...), and a change of it
// said as evidence: ctrl+b or a Bold button changes no text, name or state, only these.

/**
 * What each attribute is where a run leaves it out: the ATK text attribute defaults. Blink and GTK name only the
 * attributes a run has beyond its defaults (a plain run has no "weight"), so a run made bold read "weight: → 700".
 */
const atkDefaults: Readonly<Record<string, string>> = {
  weight: '400',
  style: 'normal',
  underline: 'none',
  strikethrough: 'false',
  'text-position': 'baseline',
  invisible: 'false',
};

/**
 * Attributes that are no formatting an action gives: a spelling mark ("invalid") comes and goes as the checker runs,
 * and the language and direction follow the text itself.
 */
const notFormatting: ReadonlySet<string> = new Set(['invalid', 'language', 'direction']);

/**
 * ATK's names for the attributes Gecko names in CSS's words: it says "font-style: italic" of a paragraph's run where
 * it says "style: italic" of a text box's, and a run made italic read "font-style normal → italic".
 */
const cssNames: Readonly<Record<string, string>> = {
  'font-style': 'style',
  'font-weight': 'weight',
  'font-family': 'family-name',
  'font-size': 'size',
  color: 'fg-color',
  'background-color': 'bg-color',
  'text-underline-style': 'underline',
  'text-line-through-style': 'strikethrough',
};

/** A run's formatting as one comparable string: its attributes in ATK's names, sorted, the defaults of those left out filled in. */
export function formattingOf(attributes: Readonly<Record<string, string>>): string {
  const all = new Map(Object.entries(atkDefaults));
  for (const [name, value] of Object.entries(attributes)) if (!notFormatting.has(name)) all.set(cssNames[name] ?? name, value);
  return JSON.stringify([...all].sort(([a], [b]) => a.localeCompare(b)));
}

/** What differs between two formattingOf strings: "weight 400 → 700, style normal → italic". */
export function formattingChange(before: string, after: string): string {
  const [was, now] = [new Map(JSON.parse(before) as [string, string][]), new Map(JSON.parse(after) as [string, string][])];
  const names = [...new Set([...was.keys(), ...now.keys()])].sort((a, b) => a.localeCompare(b));
  return names
    .filter((name) => was.get(name) !== now.get(name))
    .map((name) => `${name} ${was.get(name) ?? '(none)'} → ${now.get(name) ?? '(none)'}`)
    .join(', ');
}
