/**
 * A Code 128 barcode as bars, for a PDF to draw as filled rectangles (vector: crisp at any printer's
 * resolution). bwip-js encodes (code sets A, B and C chosen for the shortest symbol, the check character,
 * start and stop); only its `code128` encoder is imported, from its generic entry, which renders through
 * a drawing context of our own instead of to a PNG or SVG: about 120 KB of a bundle, where its default
 * entry would bring every one of its hundred symbologies and a PNG encoder.
 *
 * For a linear code bwip-js calls `init(width, height)` once, then `line(x, y0, x, y1, width, colour)` once
 * per bar: x the bar's centre, width its width, both in pixels of its `scale`. At scale 2 every bar is an
 * even number of pixels wide, so its centre is a whole pixel and bwip-js rounds nothing: a bar spans
 * `x - width/2 … x + width/2`, half a module per pixel. Nothing else is drawn (no text, no background).
 */
import { code128, type DrawingContext } from 'bwip-js/generic';

/** Pixels per module we ask bwip-js for: even, so that no bar's edge is rounded (above). */
const SCALE = 2;

/** The symbol as bars, in modules from its left edge; the quiet zones either side are the caller's to leave. */
export interface Code128Bars {
  /** The symbol's width in modules: start, data, check character and stop. */
  modules: number;
  bars: { x: number; width: number }[];
}

/** Code 128 encodes ASCII; the barcodes and requisition numbers we print are printable ASCII. */
export const isCode128Text = (text: string): boolean => /^[\x20-\x7e]+$/.test(text);

const notLinear = (what: string) => (): never => {
  throw new Error(`code128 drew ${what}: not a linear barcode's bars`);
};

export function code128Bars(text: string): Code128Bars {
  if (!isCode128Text(text)) throw new Error('Code 128 encodes printable ASCII only');
  let width = 0;
  const bars: Code128Bars['bars'] = [];
  const drawing: DrawingContext<Code128Bars> = {
    scale: () => null,
    measure: () => ({ width: 0, ascent: 0, descent: 0 }),
    init: (pixels) => {
      width = pixels;
    },
    line: (x, _y0, _x1, _y1, lineWidth) => {
      bars.push({ x: (x - lineWidth / 2) / SCALE, width: lineWidth / SCALE });
    },
    polygon: notLinear('a polygon'),
    hexagon: notLinear('a hexagon'),
    ellipse: notLinear('an ellipse'),
    fill: () => {},
    text: notLinear('text'),
    end: () => ({ modules: width / SCALE, bars }),
  };
  return code128({ bcid: 'code128', text, scale: SCALE }, drawing);
}
