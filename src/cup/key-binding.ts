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

/** Every combination a reported key binding holds, in the driver's spelling (a bare mnemonic, "n", stays "n"). */
export function keyBindingCombinations(binding: string): string[] {
  return binding.split(';').flatMap((part) => {
    const read = combination(part);
    return read ? [read] : [];
  });
}
