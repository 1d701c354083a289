import { ATSPI_ROLE } from './constants.js';

/** The mask GTK shows (and its Text gives) for each character of a password field: U+25CF. */
export const PASSWORD_MASK = '\u25cf';

/**
 * What a password field holds, as read: GTK's Text gives one mask per character, Qt's gives nothing at all (a
 * QLineEdit not in Normal echo mode answers GetText with "") while its CharacterCount is the length it holds. Read as
 * `count` masks, Qt's field says what GTK's says: how much it holds, not what. KeePassXC's master password read "" after
 * set_value, which then said nothing was changed, and type_text that the field did not show what was typed.
 */
export function passwordText(role: number, text: string, count: number): string {
  return role === ATSPI_ROLE.PASSWORD_TEXT && text === '' && count > 0 ? PASSWORD_MASK.repeat(count) : text;
}
