// The key bindings a control reports through accessibility (AT-SPI Action.GetKeyBinding): GTK writes its mnemonic and
// shortcuts as "<Alt>n" or "n;<Alt>n;<Control>q", Qt as "Alt+N". Read here as combinations in the driver's spelling
// ("alt+n"), so a key asked for can be matched with the control that answers to it.

const modifierNames: Record<string, string> = { alt: 'alt', mod1: 'alt', control: 'ctrl', ctrl: 'ctrl', primary: 'ctrl', shift: 'shift', super: 'super', meta: 'super' };

/** One binding in the driver's spelling: modifiers in a fixed order, then the key, lower case; undefined when unreadable. */
function combination(part: string): string | undefined {
  let rest = part.trim();
  const modifiers = new Set<string>();
  for (;;) {
    const angled = /^<([A-Za-z0-9]+)>/.exec(rest);
    const joined = /^([A-Za-z0-9]+)\+(?=.)/.exec(rest);
    const found = angled ?? joined;
    const modifier = found && modifierNames[found[1]!.toLowerCase()];
    if (!found || !modifier) break;
    modifiers.add(modifier);
    rest = rest.slice(found[0].length);
  }
  // GTK writes a menu item's path through its menus as "<Alt>f:s": no combination.
  if (rest.length === 0 || (rest.length > 1 && /[<>;:\s]/.test(rest))) return undefined;
  const order = ['ctrl', 'alt', 'shift', 'super'].filter((name) => modifiers.has(name));
  return [...order, rest.toLowerCase()].join('+');
}

/** A combination the window's mnemonics may answer to: Alt with one letter or digit ("alt+n"). */
export function mayBeMnemonic(combo: string): boolean {
  return /^alt\+[a-z0-9]$/.test(combo);
}

/**
 * A combination a window's menu items may answer to as their accelerator (GTK's "<Primary>s", Qt's "Ctrl+S"): one with
 * Ctrl or Super, or a function key (F1-F24) with or without modifiers. Alt with a letter is a mnemonic (mayBeMnemonic);
 * a bare key is the focused control's.
 */
export function mayBeAccelerator(combo: string): boolean {
  const parts = combo.split('+');
  return parts.includes('ctrl') || parts.includes('super') || /^f([1-9]|1[0-9]|2[0-4])$/.test(parts.at(-1)!);
}

/**
 * Combinations a focused text field takes for itself before its window's menus (Qt gives the field first say on
 * them, as its undo, clipboard and word moves): in a field, these are the field's, not a menu item's that has them.
 */
export function textFieldTakes(combo: string): boolean {
  return /^ctrl\+(shift\+)?(z|y|a|c|x|v|left|right|up|down|home|end|backspace|delete|insert)$/.test(combo);
}

/** Every combination a reported key binding holds, in the driver's spelling (a bare mnemonic, "n", stays "n"). */
export function keyBindingCombinations(binding: string): string[] {
  return binding.split(';').flatMap((part) => {
    const read = combination(part);
    return read ? [read] : [];
  });
}

/** Key names as menus show them (Qt's spelling, which Qt's bridge reports as is), for GTK's key symbol names. */
const shownKeyNames: Record<string, string> = {
  Page_Up: 'PgUp', Page_Down: 'PgDown', Prior: 'PgUp', Next: 'PgDown', Delete: 'Del', Insert: 'Ins', Escape: 'Esc', BackSpace: 'Backspace',
  Return: 'Return', KP_Enter: 'Enter', space: 'Space', Print: 'Print', plus: '+', minus: '-', equal: '=', comma: ',', period: '.',
  slash: '/', backslash: '\\', semicolon: ';', apostrophe: "'", grave: '`', bracketleft: '[', bracketright: ']', asterisk: '*',
  KP_Add: '+', KP_Subtract: '-', KP_Multiply: '*', KP_Divide: '/', question: '?', exclam: '!', numbersign: '#', dollar: '$',
  percent: '%', ampersand: '&', parenleft: '(', parenright: ')', less: '<', greater: '>', colon: ':', underscore: '_', at: '@',
};
const shownModifiers: Record<string, string> = { ctrl: 'Ctrl', alt: 'Alt', shift: 'Shift', super: 'Meta' };

/** One GTK accelerator ("<Primary><Shift>s") as a menu shows it ("Ctrl+Shift+S"); undefined when unreadable. */
function shownAccelerator(accelerator: string): string | undefined {
  let rest = accelerator.trim();
  const modifiers = new Set<string>();
  for (let found = /^<([A-Za-z0-9]+)>/.exec(rest); found; found = /^<([A-Za-z0-9]+)>/.exec(rest)) {
    const modifier = modifierNames[found[1]!.toLowerCase()];
    if (!modifier) return undefined;
    modifiers.add(modifier);
    rest = rest.slice(found[0].length);
  }
  if (!/^[A-Za-z0-9_]+$/.test(rest)) return undefined;
  const key = shownKeyNames[rest] ?? (rest.length === 1 ? rest.toUpperCase() : rest.replace(/^KP_/, ''));
  const order = ['ctrl', 'alt', 'shift', 'super'].filter((name) => modifiers.has(name));
  return [...order.map((name) => shownModifiers[name]!), key].join('+');
}

/**
 * The keyboard shortcut (accelerator) a reported key binding names, as a menu shows it: "Ctrl+Shift+S", "Del",
 * "Ctrl+PgDown"; undefined when it names none. GTK reports "mnemonic;path;accelerator" ("s;<Alt>f:s;<Primary><Shift>s"),
 * the accelerator last and empty when there is none. Qt reports the shortcut, already so spelled ("Ctrl+Shift+S"),
 * with or (a control with none) instead of its mnemonic ("Alt+F"), as GTK reports a button's mnemonic alone ("<Alt>g"):
 * Alt with one letter or digit alone is taken for the mnemonic it nearly always is.
 */
export function keyBindingShortcut(binding: string): string | undefined {
  const parts = binding.split(';');
  if (parts.length >= 3) return parts[parts.length - 1]!.trim() ? shownAccelerator(parts[parts.length - 1]!) : undefined;
  const shortcut = parts.map((part) => part.trim()).find((part) => part !== '' && !keyBindingCombinations(part).some(mayBeMnemonic));
  if (shortcut === undefined) return undefined;
  return shortcut.startsWith('<') ? shownAccelerator(shortcut) : shortcut.length <= 64 ? shortcut : undefined;
}
