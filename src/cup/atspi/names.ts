// The text of accessible names and descriptions as a user reads them: toolkits pad names with spaces,
// give unnamed widgets their type name, and Qt passes rich-text tooltips through as HTML.
import { normaliseWhitespace, withoutWordlessCharacters } from '../text.js';

/** A widget type name such as "GtkStackPage", "AdwGizmo" or "HistoryView": one CamelCase word of two or more parts. */
const typeNamePattern = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/;
/** The type GJS registers for a JavaScript widget class that names none itself: "Gjs_" and the class ("Gjs_SidebarRow"). */
const gjsTypeNamePattern = /^Gjs_[A-Za-z]\w*$/;
/** GTK's and libadwaita's own types ("GtkLabel"): the one type name a label's text is not taken for. */
const toolkitTypeNamePattern = /^(?:Gtk|Adw)[A-Z][A-Za-z0-9]*$/;
/** Roles whose name is the text they show, which may be any word: "JavaScript", a font's "D050000L". */
const textRoles: ReadonlySet<string> = new Set(['ROLE_LABEL', 'ROLE_STATIC', 'ROLE_CAPTION']);

/** A name GTK 4.8 made of the widget's type, for a widget with no name of its own. */
function isTypeName(name: string, atspiRole: string | undefined): boolean {
  if (gjsTypeNamePattern.test(name)) return true;
  // A label's name is its text: only an empty label is named by its type, one of GTK's own.
  return atspiRole !== undefined && textRoles.has(atspiRole) ? toolkitTypeNamePattern.test(name) : typeNamePattern.test(name);
}

/**
 * The name a user would read: whitespace normalised (GTK3 menus pad item names, "New      "), and GTK 4.8's
 * type names for unnamed widgets are no name at all. The raw name stays with the platform. `atspiRole` (ROLE_...)
 * tells a label, whose name is its text, from a widget named by its type. An icon font's pictures are no words
 * (withoutWordlessCharacters): a Sphinx page's heading read "Widgets manual \uf0c1", its permalink beside it, and
 * `name="Widgets manual"` found nothing.
 */
export function readableName(name: string, gtk4NameQuirks: boolean, atspiRole?: string): string {
  if (isRichTextDocument(name)) return plainText(name);
  const words = normaliseWhitespace(withoutWordlessCharacters(name));
  const normalised = atspiRole === 'ROLE_TOOL_BAR' ? withoutAmpersandMnemonic(words) : words;
  if (!gtk4NameQuirks) return normalised;
  return isTypeName(normalised, atspiRole) ? '' : (labelAfterMnemonic(normalised) ?? normalised);
}

/**
 * A name that is a rich-text document: Qt names a control by its buddy label's text as written, and a label written
 * as rich text (Qt's auto-detected HTML; Swing's "<html>" labels) gave DB Browser for SQLite's check boxes names such as
 * `<html><head/><body><p>Automatic Index <a href="..."><img src=":/icons/whatis"/></a></p></body></html>`, which
 * no selector by the label's text matched. Only a name that opens with <html> or <qt>, or is one element from its
 * opening tag to its closing one: a name with a tag-like word inside ("a <b> c") is left as it is.
 */
function isRichTextDocument(name: string): boolean {
  return /^\s*<(?:html|qt)\b[^<>]*>/i.test(name) || /^\s*<([a-z][a-z0-9]*)\b[^<>]*>[\s\S]*<\/\1\s*>\s*$/i.test(name);
}

/** The triangle a disclosure draws before its label, then the space after it. */
const disclosureMarker = /^[\u25B6\u25B8\u25BA\u25BC\u25BE\u25C0\u25C2\u25C4] /u;

/**
 * A disclosure's name without the triangle drawn before its label: Gecko names a page's <summary> "Advanced options"
 * until it is toggled, then "▾ Advanced options" and "▸ Advanced options", so a name read before stopped matching.
 * The triangle says expanded or collapsed, which the states say.
 */
export function withoutDisclosureMarker(name: string, expandable: boolean): string {
  return expandable ? name.replace(disclosureMarker, '') : name;
}

/** The bullets a browser draws before a list's items (disc, circle, square), then the space after it. */
const bulletMarker = /^[\u2022\u25E6\u25AA] /u;
/** A number a browser draws before an ordered list's item, then the space after it. */
const numberMarker = /^(\d{1,6})\. /u;

/**
 * An item's name without the list marker Gecko puts before the words of a page's list item (display: list-item) when
 * it names the item by its content: a playlist's `<li role=option>` read `opt "• Atmosphere"`, and the selector
 * `name=Atmosphere`, the page's words, found nothing. A number is the marker only where it is the item's place
 * (posinset), as an ordered list numbers its items: "1. Intro" on the third item is the page's words. Blink, which says
 * where a name came from (`name-from`), names the item by its words alone; a name the page gave (Gecko's
 * `explicit-name`) is the page's as written.
 */
export function withoutListMarker(name: string, attributes: Readonly<Record<string, string>> | undefined): string {
  if (attributes?.display !== 'list-item' || attributes['explicit-name'] !== undefined || attributes['name-from'] !== undefined) return name;
  const number = numberMarker.exec(name);
  if (number) return number[1] === attributes.posinset ? name.slice(number[0].length) : name;
  return name.replace(bulletMarker, '');
}

/** Whether a name starts with a mark a browser draws before the words (a disclosure's triangle, a list marker), which the tree leaves out where the object's states and attributes say it is one. */
export function startsWithDrawnMarker(name: string): boolean {
  return disclosureMarker.test(name) || bulletMarker.test(name) || numberMarker.test(name);
}

/**
 * A toolbar's title as shown, without Qt's mnemonic marks: Qt takes a toolbar's accessible name from its window title
 * as written, where it strips them from its buttons' and menus' ("&File" is shown "File", "&&" is a shown ampersand).
 * qpdfview's toolbars read `tlbr "&File"`, `tlbr "&Edit"`. An ampersand between words ("Tom & Jerry") is kept.
 */
function withoutAmpersandMnemonic(text: string): string {
  return text.replace(/(^|\s)&(?=[^\s&])/gu, '$1').replace(/&&/gu, '&');
}

/** A label as shown, without its mnemonic marks: "_Save" is shown "Save", and "__" is a shown underscore. */
export function withoutMnemonic(text: string): string {
  return text.replace(/_(.)/gsu, '$1');
}

/**
 * GTK 4.8 names a widget whose label has a mnemonic by the label as written and then as shown: "_Save Save",
 * "Save _As Save As". The shown label is the name; any other name with an underscore in it (a file's) is left as it is.
 */
function labelAfterMnemonic(name: string): string | undefined {
  for (let space = name.indexOf(' '); space > 0; space = name.indexOf(' ', space + 1)) {
    const [written, shown] = [name.slice(0, space), name.slice(space + 1)];
    if (written.includes('_') && withoutMnemonic(written) === shown) return shown;
  }
  return undefined;
}

/**
 * The label a GTK 4.8 name says twice: a button whose label may hold a mnemonic (use-underline) is named by the label
 * as written and then by its label child's text, so "Start" with no mark in it is named "Start Start" (Clocks'
 * stopwatch, Calculator's "4 4"). Only a caller that knows the object's content is that label may take it (the tree
 * does, from the children it reads; an action's evidence reads them for it): a name may say a word twice.
 */
export function repeatedLabel(name: string): string | undefined {
  if (name.length < 3 || name.length % 2 === 0) return undefined;
  const half = (name.length - 1) / 2;
  return name[half] === ' ' && name.slice(0, half) === name.slice(half + 1) ? name.slice(0, half) : undefined;
}

const markupTag = /<\/?[a-zA-Z][^<>]*>/;
const entities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * Text that arrives as HTML (Qt hands rich-text tooltips such as `<p style='white-space:pre'>Calculate…</p>`
 * to AT-SPI unchanged) read as its plain text; anything without a tag is only whitespace-normalised.
 */
export function plainText(text: string): string {
  if (!markupTag.test(text)) return normaliseWhitespace(text);
  const withoutTags = text.replace(/<br\s*\/?>/gi, ' ').replace(new RegExp(markupTag.source, 'g'), ' ');
  const decoded = withoutTags.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity: string, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return entities[body.toLowerCase()] ?? entity;
  });
  return normaliseWhitespace(decoded);
}

/** A media type ("text/plain", "text/html", "application/rtf"): the format of what a control holds, never what it is called. */
const mediaTypePattern = /^(?:text|application|image|audio|video|message|multipart|font|model)\/[a-z0-9][\w.+-]*$/i;

/**
 * Whether a description only says the format of the content: Swing's editor panes (JEditorPane, JTextPane) describe
 * themselves by their content type, and Groovy Console's script editor and output pane, which have no name, read
 * as textbox "text/plain" and textbox "text/html" when named by their description (their tool tip, elsewhere).
 */
export function isMediaType(description: string): boolean {
  return mediaTypePattern.test(description.trim());
}
