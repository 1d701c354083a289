// Pictures drawn over the desktop or over a screenshot: the agent cursor's looks (icon, colour, size, label), the
// ring that marks a click in a screen video, and the marker on a recorded turn's click.png. Drawn as SVG by sharp
// (librsvg), so shapes are smooth at any size and CSS colour names work as they do in a browser.
import sharp from 'sharp';
import type { RawImage } from './raw-image.js';

export const CURSOR_ICONS = ['arrow', 'crosshair', 'hand', 'dot'] as const;
export type CursorIcon = (typeof CURSOR_ICONS)[number];

export interface CursorStyle {
  /** A built-in icon, or the path of a PNG or SVG file. */
  icon: string;
  /** "#rrggbb" (as resolveColour returns it). */
  color: string;
  /** The icon's size in pixels: the arrow is size * 18/16 tall, a dot or crosshair size wide. */
  size: number;
  label?: string;
  /** Colour stops from the tip (top) to the tail (bottom), "#rrggbb" each, in place of `color` on a built-in icon. */
  gradient?: string[];
  /** A soft halo of this colour around the icon. */
  bloom?: string;
}

export interface RenderedLook {
  image: RawImage;
  /** The pixel that marks the point: the arrow's tip, the centre of the others, a file's top-left corner. */
  hotspot: { x: number; y: number };
}

const outline = '#101010';

/** Renders an SVG document to tightly packed RGBA. */
async function rasterize(svg: string): Promise<RawImage> {
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 4, data };
}

/**
 * A colour as "#rrggbb": hex (#rgb, #rrggbb) or any CSS colour name; throws for anything else. The colour is
 * drawn by librsvg over an inherited sentinel: an invalid value is ignored there and leaves the sentinel.
 */
export async function resolveColour(colour: string): Promise<string> {
  const trimmed = colour.trim().toLowerCase();
  if (!/^(#[0-9a-f]{3}|#[0-9a-f]{6}|[a-z]{3,30})$/.test(trimmed)) throw new Error(`"${colour}" is not a colour: give #rrggbb, #rgb or a CSS colour name`);
  const sentinel = '#010203';
  const image = await rasterize(`<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><g fill="${sentinel}"><rect width="1" height="1" fill="${trimmed}"/></g></svg>`);
  const hex = `#${[...image.data.subarray(0, 3)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
  if (hex === sentinel && trimmed !== sentinel) throw new Error(`"${colour}" is not a colour: give #rrggbb, #rgb or a CSS colour name (red, teal, ...)`);
  return hex;
}

function iconSvg(icon: CursorIcon, color: string, size: number): { body: string; width: number; height: number; hotspot: { x: number; y: number } } {
  const s = size / 16;
  switch (icon) {
    case 'arrow': {
      // The default arrow's outline, as a polygon on the 12x18 grid the platform draws at size 16.
      const points = [[0.5, 0.5], [0.5, 16.5], [4.5, 12.5], [7.5, 17.5], [9.5, 16.5], [6.5, 11.5], [11.5, 11.5]];
      const path = points.map(([x, y]) => `${(x! * s).toFixed(2)},${(y! * s).toFixed(2)}`).join(' ');
      return {
        body: `<polygon points="${path}" fill="${color}" stroke="${outline}" stroke-width="${Math.max(1, s).toFixed(2)}" stroke-linejoin="round"/>`,
        width: Math.ceil(12 * s) + 1, height: Math.ceil(18 * s) + 1, hotspot: { x: 0, y: 0 },
      };
    }
    case 'dot': {
      const r = size / 2;
      return { body: `<circle cx="${r + 1}" cy="${r + 1}" r="${r}" fill="${color}" stroke="${outline}" stroke-width="1"/>`, width: size + 2, height: size + 2, hotspot: { x: Math.round(r + 1), y: Math.round(r + 1) } };
    }
    case 'crosshair': {
      const c = size / 2 + 1;
      const w = Math.max(2, size / 8);
      const bar = (x1: number, y1: number, x2: number, y2: number) =>
        `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${outline}" stroke-width="${w + 2}"/><line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${color}" stroke-width="${w}"/>`;
      return { body: bar(1, c, size + 1, c) + bar(c, 1, c, size + 1), width: size + 2, height: size + 2, hotspot: { x: Math.round(c), y: Math.round(c) } };
    }
    case 'hand': {
      // A pointing hand: the index finger up (its tip is the hotspot), three folded fingers and the thumb.
      const path = 'M6,1 C7.5,1 8,2 8,3 L8,8 L12,8.5 C14,9 15,10 15,12 L14.5,17 C14,19 13,20 11,20 L6,20 C4.5,20 3.5,19 3,18 L1,13 C0.5,11.5 2,10.5 3.5,11.5 L4,12 L4,3 C4,2 4.5,1 6,1 Z';
      return {
        body: `<g transform="scale(${(s * 0.9).toFixed(3)})"><path d="${path}" fill="${color}" stroke="${outline}" stroke-width="1.2" stroke-linejoin="round"/></g>`,
        width: Math.ceil(16 * s * 0.9) + 1, height: Math.ceil(21 * s * 0.9) + 1, hotspot: { x: Math.round(6 * s * 0.9), y: 1 },
      };
    }
  }
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Black or white, whichever reads better on the colour. */
function textColourOn(color: string): string {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! > 150 ? '#000000' : '#ffffff';
}

/** The cursor's look: its icon in its colour and size, and the label (when given) in a tag beside it. */
export async function renderCursorLook(style: CursorStyle): Promise<RenderedLook> {
  const builtIn = (CURSOR_ICONS as readonly string[]).includes(style.icon);
  let icon: RawImage;
  let hotspot: { x: number; y: number };
  if (builtIn) {
    const stops = style.gradient && style.gradient.length > 0 ? style.gradient : undefined;
    const drawn = iconSvg(style.icon as CursorIcon, stops ? 'url(#fill)' : style.color, style.size);
    // A halo needs room around the icon: the canvas grows by the blur's reach and the hotspot moves with it.
    const margin = style.bloom ? Math.max(4, Math.round(style.size / 4)) : 0;
    const defs =
      (stops ? `<linearGradient id="fill" x1="0" y1="0" x2="0" y2="1">${stops.map((stop, i) => `<stop offset="${stops.length === 1 ? 0 : i / (stops.length - 1)}" stop-color="${stop}"/>`).join('')}</linearGradient>` : '') +
      // The halo is the icon's shape grown by half the margin and softened, so it reads as a glow where a compositor
      // blends it and still shows as a ring on a shaped window without one.
      (style.bloom
        ? `<filter id="bloom" x="-50%" y="-50%" width="200%" height="200%"><feMorphology in="SourceAlpha" operator="dilate" radius="${(margin / 2).toFixed(1)}" result="grown"/>` +
          `<feGaussianBlur in="grown" stdDeviation="${(margin / 4).toFixed(1)}" result="soft"/><feFlood flood-color="${style.bloom}"/><feComposite in2="soft" operator="in" result="halo"/>` +
          '<feMerge><feMergeNode in="halo"/><feMergeNode in="SourceGraphic"/></feMerge></filter>'
        : '');
    const width = drawn.width + margin * 2;
    const height = drawn.height + margin * 2;
    icon = await rasterize(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs>${defs}</defs>` +
        `<g transform="translate(${margin},${margin})"${style.bloom ? ' filter="url(#bloom)"' : ''}>${drawn.body}</g></svg>`,
    );
    hotspot = { x: drawn.hotspot.x + margin, y: drawn.hotspot.y + margin };
  } else {
    const { data, info } = await sharp(style.icon).resize(style.size, style.size, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    icon = { width: info.width, height: info.height, channels: 4, data };
    hotspot = { x: 0, y: 0 };
  }
  if (!style.label) return { image: icon, hotspot };
  const fontSize = 12;
  const labelWidth = Math.ceil(style.label.length * fontSize * 0.62) + 10;
  const labelHeight = fontSize + 8;
  const labelX = icon.width + 2;
  const labelY = Math.round(icon.height * 0.6);
  const width = labelX + labelWidth;
  const height = Math.max(icon.height, labelY + labelHeight);
  const tag =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect x="${labelX}" y="${labelY}" width="${labelWidth}" height="${labelHeight}" rx="4" fill="${style.color}" stroke="${outline}" stroke-width="1"/>` +
    `<text x="${labelX + 5}" y="${labelY + fontSize + 2}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="${textColourOn(style.color)}">${escapeXml(style.label)}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(tag))
    .ensureAlpha()
    .composite([{ input: icon.data, raw: { width: icon.width, height: icon.height, channels: 4 }, left: 0, top: 0 }])
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { image: { width: info.width, height: info.height, channels: 4, data }, hotspot };
}

/** A ring around a click, for screen videos: radius in pixels, hotspot at its centre. */
export async function renderClickRing(color: string, radius: number): Promise<RenderedLook> {
  const size = radius * 2 + 6;
  const c = size / 2;
  const image = await rasterize(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><circle cx="${c}" cy="${c}" r="${radius}" fill="none" stroke="${outline}" stroke-width="5"/><circle cx="${c}" cy="${c}" r="${radius}" fill="none" stroke="${color}" stroke-width="3"/></svg>`,
  );
  return { image, hotspot: { x: Math.round(c), y: Math.round(c) } };
}

/** A PNG with a red ring and dot centred on (x, y) of it: where a recorded click landed. */
export async function markPoint(png: Buffer, x: number, y: number): Promise<Buffer> {
  const { width, height } = await sharp(png).metadata();
  const marker =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<circle cx="${x}" cy="${y}" r="9" fill="none" stroke="#ffffff" stroke-width="5"/>` +
    `<circle cx="${x}" cy="${y}" r="9" fill="none" stroke="#ff0000" stroke-width="3"/>` +
    `<circle cx="${x}" cy="${y}" r="3" fill="#ff0000"/></svg>`;
  return sharp(png).composite([{ input: Buffer.from(marker), left: 0, top: 0 }]).png({ compressionLevel: 2, adaptiveFiltering: false }).toBuffer();
}
