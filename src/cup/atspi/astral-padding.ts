// Gecko's accessible text counts offsets in UTF-16 units, and ATK in characters: to make the two agree, Gecko
// writes U+FEFF after every character beyond the Basic Multilingual Plane (DOMtoATK::AddBOMs), so an emoji takes two
// offsets there too. The page holds no such U+FEFF: "x👍🏽y" typed into a textarea read "x👍\uFEFF🏽\uFEFFy", and the
// typing was reported as not arrived. Offsets are asked with the padding in; text handed out is without it.

const padding = /([\u{10000}-\u{10FFFF}])\uFEFF/gu;

/** The text without the U+FEFF that follows each supplementary-plane character. */
export function withoutAstralPadding(text: string): string {
  return text.includes('\uFEFF') ? text.replace(padding, '$1') : text;
}
