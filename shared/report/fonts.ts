/**
 * The text of the results report: which face draws which character. Noto Sans draws Latin, Greek and
 * Cyrillic, Noto Sans SC Chinese and Japanese, Noto Sans KR Hangul (all OFL); shared/report/font-files.ts
 * says where each file comes from. A face is read and parsed once per container, on the first report that
 * needs it, and kept: the CJK files are megabytes, and every report needs the same faces.
 */
import * as fontkit from '@cantoo/fontkit';
import { StandardFontEmbedder, StandardFonts, type Color, type PDFDocument, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import { type FontFace, FONT_FILES } from './font-faces';
import { readFontFile } from './font-files';

/** A face read and parsed once per container, with the code points it draws. */
interface LoadedFace {
  bytes: Uint8Array;
  font: fontkit.Font;
  characters: ReadonlySet<number>;
}
/** Promises, so that two reports rendering at once read a file once; a failed read is forgotten and tried again. */
const loadedFaces = new Map<FontFace, Promise<LoadedFace>>();
/** The faces loaded so far, for the fontkit below (synchronous). */
const parsedFaces: LoadedFace[] = [];

function loadFace(face: FontFace): Promise<LoadedFace> {
  let loading = loadedFaces.get(face);
  if (!loading) {
    loading = readFontFile(face).then((bytes) => {
      const font = fontkit.create(bytes);
      if (!('characterSet' in font)) throw new Error(`${FONT_FILES[face]} is a font collection, not a font`);
      const loaded = { bytes, font, characters: new Set(font.characterSet) };
      parsedFaces.push(loaded);
      return loaded;
    });
    loading.catch(() => loadedFaces.delete(face));
    loadedFaces.set(face, loading);
  }
  return loading;
}

const characterSet = async (face: FontFace) => (await loadFace(face)).characters;
const embedFace = async (doc: PDFDocument, face: FontFace) => doc.embedFont((await loadFace(face)).bytes, { subset: true });

/**
 * The fontkit pdf-lib embeds with, handed our parsed faces instead of parsing their bytes again: decoding
 * a face's tables (its shaping rules above all) takes longer than drawing a whole report. Sharing a parsed
 * font between documents is safe: each embedding makes its own subset of it.
 */
const parsedOnce: Parameters<PDFDocument['registerFontkit']>[0] = {
  create: (bytes) => parsedFaces.find((face) => face.bytes === bytes)?.font ?? fontkit.create(bytes),
};

export type Weight = 'regular' | 'bold';

export interface TextStyle {
  size: number;
  weight?: Weight;
  color?: Color;
}

/** Text in any of the report's scripts, measured and drawn in runs of one face each. */
export interface ReportText {
  width(text: string, style: TextStyle): number;
  draw(page: PDFPage, text: string, at: { x: number; y: number } & TextStyle): void;
}

interface Fallback {
  /**
   * Whether the face may draw this character, known without loading it: a CJK face is fetched (megabytes,
   * from S3 in Lambda) only for a character of its scripts or a shared one (punctuation, symbols, full-width
   * forms), never for Arabic, Hebrew, Thai, Devanagari… that neither draws.
   */
  mayDraw(character: string): boolean;
  characters(): Promise<ReadonlySet<number>>;
  embed(doc: PDFDocument): Promise<PDFFont>;
}

/**
 * The characters of the PDF's built-in Symbol font, read from the copy of the standard fonts pdf-lib embeds
 * with: its `@cantoo/pdf-lib/standard-fonts` export is a second build of them, 130 KB more in the bundle,
 * decoded at load. Read when first needed: only a report with a character Noto Sans lacks asks.
 */
let symbolCharacters: ReadonlySet<number> | undefined;
// pdf-lib's two enums of the fonts' names hold the same strings; `for` is typed with the other one.
const SYMBOL = StandardFonts.Symbol as unknown as Parameters<typeof StandardFontEmbedder.for>[0];
const symbolCharactersOnce = () => (symbolCharacters ??= new Set(StandardFontEmbedder.for(SYMBOL).encoding.supportedCodePoints));

/** Scripts every face may share: punctuation, symbols, digits and full-width Latin, Greek, Cyrillic. */
const SHARED = String.raw`\p{Script=Common}\p{Script=Inherited}\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}`;
const CHINESE_OR_JAPANESE = new RegExp(String.raw`^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}${SHARED}]$`, 'u');
const KOREAN = new RegExp(String.raw`^[\p{Script=Hangul}\p{Script=Han}${SHARED}]$`, 'u');

/** Where a character Noto Sans lacks is looked for, in this order. */
const FALLBACKS: Fallback[] = [
  // Noto Sans has no ≤ or ≥ (results such as "≤ 0.5"); the PDF's built-in Symbol font has them, at no cost.
  { mayDraw: () => true, characters: async () => symbolCharactersOnce(), embed: (doc) => doc.embedFont(StandardFonts.Symbol) },
  { mayDraw: (c) => CHINESE_OR_JAPANESE.test(c), characters: () => characterSet('chinese'), embed: (doc) => embedFace(doc, 'chinese') },
  { mayDraw: (c) => KOREAN.test(c), characters: () => characterSet('korean'), embed: (doc) => embedFace(doc, 'korean') },
];

/**
 * Embeds Noto Sans (regular and bold) and, only when `allText` holds characters Noto Sans lacks, the
 * fallbacks that have them: a Latin-only report stays small and fast. Faces are subset, so a report
 * carries only the glyphs it draws. A character no face has is drawn by Noto Sans (as its empty box).
 */
export async function embedReportText(doc: PDFDocument, allText: string): Promise<ReportText> {
  doc.registerFontkit(parsedOnce);
  const [regular, bold, regularCharacters, boldCharacters] = await Promise.all([
    embedFace(doc, 'regular'),
    embedFace(doc, 'bold'),
    characterSet('regular'),
    characterSet('bold'),
  ]);

  let missing = [...new Set(codePoints(allText))].filter((cp) => cp >= 0x20 && !regularCharacters.has(cp));
  const fallbacks: Array<{ font: PDFFont; has: ReadonlySet<number> }> = [];
  for (const fallback of FALLBACKS) {
    if (missing.length === 0) break;
    if (!missing.some((cp) => fallback.mayDraw(String.fromCodePoint(cp)))) continue;
    const has = await fallback.characters();
    if (!missing.some((cp) => has.has(cp))) continue;
    fallbacks.push({ font: await fallback.embed(doc), has });
    missing = missing.filter((cp) => !has.has(cp));
  }

  const fontFor = (cp: number, weight: Weight): PDFFont => {
    if ((weight === 'bold' ? boldCharacters : regularCharacters).has(cp) || cp < 0x20) return weight === 'bold' ? bold : regular;
    // No fallback has a bold weight: a bold run of them is drawn regular rather than as empty boxes.
    return fallbacks.find((fallback) => fallback.has.has(cp))?.font ?? (weight === 'bold' ? bold : regular);
  };
  const runs = (text: string, weight: Weight) => {
    const out: Array<{ text: string; font: PDFFont }> = [];
    for (const char of text) {
      const font = fontFor(char.codePointAt(0) as number, weight);
      const last = out.at(-1);
      if (last?.font === font) last.text += char;
      else out.push({ text: char, font });
    }
    return out;
  };

  return {
    width: (text, { size, weight = 'regular' }) => runs(text, weight).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0),
    draw(page, text, { x, y, size, weight = 'regular', color }) {
      let left = x;
      for (const run of runs(text, weight)) {
        page.drawText(run.text, { x: left, y, size, font: run.font, ...(color && { color }) });
        left += run.font.widthOfTextAtSize(run.text, size);
      }
    },
  };
}

function* codePoints(text: string): Generator<number> {
  for (const char of text) yield char.codePointAt(0) as number;
}
