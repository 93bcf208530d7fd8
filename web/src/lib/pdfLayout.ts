/**
 * The PDF report's layout, without jspdf: from the report data (lib/report.ts) to a list
 * of pages of draw operations (text, filled rectangles, lines) in millimetres on A4
 * portrait. lib/pdf.ts draws them with jspdf; tests check them (every text inside the
 * margins, every figure present, Spanish labels in the Spanish report).
 *
 * Text is measured and wrapped by the `Measure` given (jspdf's own metrics in the app and
 * in the tests), and written only with characters of the standard fonts' WinAnsi encoding
 * (`pdfSafe`): a single character outside it makes jspdf write the whole string as
 * two-byte codes, which Helvetica shows as garbage.
 */
import type { Lang } from './format.js';
import type { ReportChart, ReportData, ReportSection } from './reportData.js';

export type RGB = readonly [number, number, number];
export interface TextOp {
  op: 'text';
  /** Left edge (align left) or right edge (align right) of the text; y is the baseline. */
  x: number;
  y: number;
  text: string;
  /** Font size in points; Helvetica normal or bold. */
  size: number;
  bold: boolean;
  color: RGB;
  align: 'left' | 'right';
  /** The text's measured width (mm). */
  width: number;
  /** Page furniture (running header, footer) rather than the report's content. */
  role?: 'header' | 'footer';
}
export interface RectOp {
  op: 'rect';
  x: number;
  y: number;
  w: number;
  h: number;
  fill: RGB;
}
export interface LineOp {
  op: 'line';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  color: RGB;
  width: number;
}
export type DrawOp = TextOp | RectOp | LineOp;

export interface PdfLayout {
  width: number;
  height: number;
  /** Left and right margin; text stays between them. */
  margin: number;
  /** Content (not the footer) ends above this. */
  bottom: number;
  lang: Lang;
  title: string;
  pages: DrawOp[][];
}

/** Text metrics in millimetres for Helvetica at `size` points (normal or bold). */
export interface Measure {
  width(text: string, size: number, bold: boolean): number;
  /** The text broken into lines no wider than maxWidth (jspdf's splitTextToSize). */
  split(text: string, maxWidth: number, size: number, bold: boolean): string[];
}

export const PAGE = { width: 210, height: 297, margin: 16 } as const;
const BOTTOM = PAGE.height - 20;
const FOOTER_Y = PAGE.height - 10;
const TOP = 22;
/** Millimetres per point. */
const PT = 25.4 / 72;
const lineHeight = (size: number) => size * PT * 1.3;
/** Distance from a line's top to its baseline. */
const ascent = (size: number) => size * PT * 0.78;

export const COLORS = {
  primary: [11, 61, 145],
  fg: [20, 33, 61],
  muted: [74, 85, 104],
  line: [214, 220, 232],
  zebra: [245, 247, 251],
  white: [255, 255, 255],
  bars: {
    school: [11, 61, 145],
    county: [37, 99, 235],
    city: [15, 118, 110],
    special: [146, 64, 14],
    before: [138, 148, 166],
    after: [22, 101, 52],
  } as Record<string, RGB>,
} satisfies Record<string, RGB | Record<string, RGB>>;

/** The characters the standard fonts have beyond Latin-1 (WinAnsi 0x80–0x9F). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const REPLACE: Record<string, string> = {
  '\u2009': '\u00a0',
  '\u200a': '\u00a0',
  '\u202f': '\u00a0',
  '\u2007': '\u00a0',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2212': '-',
  '\u2015': '—',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
  '\u2248': '~',
  '\u2192': '->',
  '\u2190': '<-',
  '\u2032': "'",
  '\u2033': '"',
  '\u00ad': '',
};

/** The text with only characters Helvetica's WinAnsi encoding has (others replaced by a near equivalent or '?'). */
export function pdfSafe(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const c = ch.codePointAt(0)!;
    if (ch === '\n' || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (ch in REPLACE) out += REPLACE[ch];
    else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) out += ' ';
    else out += '?';
  }
  return out;
}

/** Bar lengths in percent of the longest (as the page's charts, components/Charts.tsx): a figure above 0 gets at least 1%. */
export function barPercents(values: number[]): number[] {
  const max = Math.max(0, ...values);
  return values.map((v) => (max > 0 && v > 0 ? Math.max(1, (v / max) * 100) : 0));
}

const fill = (template: string, vars: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));

/** The report laid out on pages. */
export function layoutReport(report: ReportData, measure: Measure): PdfLayout {
  const { width: W, margin: M } = PAGE;
  const CW = W - 2 * M;
  const pages: DrawOp[][] = [];
  let ops: DrawOp[] = [];
  let y = 0;

  const text = (
    s: string,
    x: number,
    baseline: number,
    size: number,
    o: { bold?: boolean; color?: RGB; align?: 'left' | 'right'; role?: TextOp['role'] } = {},
  ) => {
    const t = pdfSafe(s);
    if (!t.trim()) return;
    const bold = o.bold ?? false;
    ops.push({
      op: 'text',
      x,
      y: baseline,
      text: t,
      size,
      bold,
      color: o.color ?? COLORS.fg,
      align: o.align ?? 'left',
      width: measure.width(t, size, bold),
      role: o.role,
    });
  };
  const split = (s: string, max: number, size: number, bold = false): string[] => {
    const lines = measure.split(pdfSafe(s), max, size, bold).filter((l, i, a) => l.trim() || a.length === 1);
    return lines.length ? lines : [''];
  };
  /** Starts a page; pages after the first get a running header (product, place and year). */
  const newPage = () => {
    ops = [];
    pages.push(ops);
    if (pages.length === 1) return;
    const product = pdfSafe(report.header.product);
    text(product, M, 12, 9, { bold: true, color: COLORS.primary, role: 'header' });
    const room = CW - measure.width(product, 9, true) - 6;
    let hy = 12;
    for (const line of split(report.header.place, room, 8)) {
      text(line, W - M, hy, 8, { color: COLORS.muted, align: 'right', role: 'header' });
      hy += lineHeight(8);
    }
    const ruleY = Math.max(15, hy - lineHeight(8) + 3);
    ops.push({ op: 'line', x1: M, y1: ruleY, x2: W - M, y2: ruleY, color: COLORS.line, width: 0.3 });
    y = Math.max(TOP, ruleY + 6);
  };
  const room = () => BOTTOM - y;
  const ensure = (h: number) => {
    if (h > room()) newPage();
  };
  const HEADING = 12;
  const headingHeight = lineHeight(HEADING) + 2;
  const heading = (title: string) => {
    for (const line of split(title, CW, HEADING, true)) {
      text(line, M, y + ascent(HEADING), HEADING, { bold: true, color: COLORS.primary });
      y += lineHeight(HEADING);
    }
    y += 2;
  };

  // Page 1: the header band (product, edition, place and year, date), then the title.
  newPage();
  {
    const band: DrawOp = { op: 'rect', x: 0, y: 0, w: W, h: 0, fill: COLORS.primary };
    ops.push(band);
    const product = pdfSafe(report.header.product);
    let by = 8;
    text(product, M, by + ascent(20), 20, { bold: true, color: COLORS.white });
    const dateWidth = measure.width(pdfSafe(report.header.date), 9, false);
    if (measure.width(product, 20, true) + dateWidth + 6 <= CW) {
      text(report.header.date, W - M, by + ascent(20), 9, { color: COLORS.white, align: 'right' });
      by += lineHeight(20) + 1;
    } else {
      by += lineHeight(20) + 1;
      for (const line of split(report.header.date, CW, 9)) {
        text(line, M, by + ascent(9), 9, { color: COLORS.white });
        by += lineHeight(9);
      }
    }
    for (const line of split(report.header.edition, CW, 11)) {
      text(line, M, by + ascent(11), 11, { color: COLORS.white });
      by += lineHeight(11);
    }
    by += 1;
    for (const line of split(report.header.place, CW, 12, true)) {
      text(line, M, by + ascent(12), 12, { bold: true, color: COLORS.white });
      by += lineHeight(12);
    }
    band.h = by + 5;
    y = band.h + 7;
    for (const line of split(report.title, CW, 15, true)) {
      text(line, M, y + ascent(15), 15, { bold: true });
      y += lineHeight(15);
    }
    y += 4;
  }

  /** A two-column table; rows never split across pages (a row taller than a page is cut into pieces), the title is repeated as "(continued)". */
  const table = (section: ReportSection, o: { emphasizeFirst?: boolean } = {}) => {
    if (!section.rows.length) return;
    const SIZE = 9.5;
    const pad = 1.8;
    const labelW = CW * 0.58;
    const valueW = CW - labelW;
    type Piece = { label: string[]; value: string[]; size: number; bold: boolean; index: number };
    const pieces: Piece[] = [];
    const maxLines = Math.floor((BOTTOM - TOP - headingHeight - 2 * pad) / lineHeight(12));
    section.rows.forEach(([label, value], index) => {
      const big = o.emphasizeFirst && index === 0;
      const size = big ? 12 : SIZE;
      const l = split(label, labelW - 2 * pad, size, big);
      const v = value ? split(value, valueW - 2 * pad, size, true) : [];
      for (let i = 0; i < Math.max(l.length, v.length); i += maxLines) {
        pieces.push({ label: l.slice(i, i + maxLines), value: v.slice(i, i + maxLines), size, bold: !!big, index });
      }
    });
    const pieceHeight = (p: Piece) => Math.max(p.label.length, p.value.length, 1) * lineHeight(p.size) + 2 * pad;
    ensure(headingHeight + pieceHeight(pieces[0]!));
    heading(section.title);
    for (const p of pieces) {
      const h = pieceHeight(p);
      if (h > room()) {
        newPage();
        heading(fill(report.labels.continued, { title: section.title }));
      }
      if (p.index % 2 === 0) ops.push({ op: 'rect', x: M, y, w: CW, h, fill: COLORS.zebra });
      const base = y + pad + ascent(p.size);
      p.label.forEach((line, i) => text(line, M + pad, base + i * lineHeight(p.size), p.size, { bold: p.bold, color: p.bold ? COLORS.fg : COLORS.muted }));
      p.value.forEach((line, i) =>
        text(line, W - M - pad, base + i * lineHeight(p.size), p.size, { bold: true, color: p.bold ? COLORS.primary : COLORS.fg, align: 'right' }),
      );
      y += h;
      ops.push({ op: 'line', x1: M, y1: y, x2: W - M, y2: y, color: COLORS.line, width: 0.2 });
    }
    y += 6;
  };

  /** A horizontal bar chart: labels on the left, bars scaled to the largest figure, each figure written after its bar. */
  const bars = (chart: ReportChart) => {
    const SIZE = 9;
    const labelW = 50;
    const gap = 3;
    const barH = 4.6;
    const displays = chart.bars.map((b) => pdfSafe(b.display));
    const valueW = Math.max(0, ...displays.map((d) => measure.width(d, SIZE, true))) + 2;
    const barX = M + labelW + gap;
    const maxBar = Math.max(10, CW - labelW - gap - valueW - 1);
    const pct = barPercents(chart.bars.map((b) => b.value));
    const rows = chart.bars.map((b) => {
      const lines = split(b.label, labelW, SIZE);
      return { b, lines, h: Math.max(lines.length * lineHeight(SIZE), barH) + 3 };
    });
    const total = rows.reduce((s, r) => s + r.h, 0);
    ensure(headingHeight + total + 4);
    heading(chart.title);
    const top = y;
    rows.forEach((r, i) => {
      const mid = y + r.h / 2;
      const textTop = mid - (r.lines.length * lineHeight(SIZE)) / 2;
      r.lines.forEach((line, j) => text(line, M, textTop + ascent(SIZE) + j * lineHeight(SIZE), SIZE, { color: COLORS.muted }));
      const w = (maxBar * pct[i]!) / 100;
      if (w > 0) ops.push({ op: 'rect', x: barX, y: mid - barH / 2, w, h: barH, fill: COLORS.bars[r.b.key] ?? COLORS.primary });
      text(displays[i]!, barX + w + 1.5, mid + ascent(SIZE) / 2, SIZE, { bold: true });
      y += r.h;
    });
    ops.push({ op: 'line', x1: barX, y1: top, x2: barX, y2: y, color: COLORS.line, width: 0.3 });
    y += 6;
  };

  /** Paragraphs, line by line across pages (bulleted for the notes). */
  const paragraphs = (items: string[], o: { size: number; color?: RGB; bullet?: boolean }) => {
    const indent = o.bullet ? 4 : 0;
    const lh = lineHeight(o.size);
    for (const item of items) {
      split(item, CW - indent, o.size).forEach((line, i) => {
        ensure(lh);
        if (o.bullet && i === 0) text('•', M, y + ascent(o.size), o.size, { color: o.color });
        text(line, M + indent, y + ascent(o.size), o.size, { color: o.color });
        y += lh;
      });
      y += 1;
    }
    y += 3;
  };

  table(report.figures, { emphasizeFirst: true });
  for (const chart of report.charts) bars(chart);
  table(report.inputs);
  table(report.values);
  table(report.exemptions);
  for (const d of report.details) table(d);
  if (report.notes.length) {
    ensure(headingHeight + lineHeight(9.5) * 2);
    heading(report.notesTitle);
    paragraphs(report.notes, { size: 9.5, bullet: true });
  }
  ensure(lineHeight(8.5) * 3);
  paragraphs([report.disclaimer], { size: 8.5, color: COLORS.muted });
  if (report.sources) paragraphs([report.sources], { size: 8, color: COLORS.muted });

  // Footers: the product on the left, "Page n of N" on the right.
  pages.forEach((page, i) => {
    ops = page;
    ops.push({ op: 'line', x1: M, y1: FOOTER_Y - 5, x2: W - M, y2: FOOTER_Y - 5, color: COLORS.line, width: 0.2 });
    const label = fill(report.labels.page, { page: i + 1, pages: pages.length });
    text(label, W - M, FOOTER_Y, 8, { color: COLORS.muted, align: 'right', role: 'footer' });
    const max = CW - measure.width(pdfSafe(label), 8, false) - 6;
    const left = split(`${report.header.product} · ${report.header.place}`, max, 8);
    text(left.length > 1 ? `${split(left[0]!, max - measure.width('…', 8, false), 8)[0]!}…` : left[0]!, M, FOOTER_Y, 8, {
      color: COLORS.muted,
      role: 'footer',
    });
  });

  return { width: W, height: PAGE.height, margin: M, bottom: BOTTOM, lang: report.lang, title: report.title, pages };
}
