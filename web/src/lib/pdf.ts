/**
 * The PDF report, drawn in the browser with jspdf loaded on demand (A4 portrait, named
 * after the county). What goes where is decided by lib/pdfLayout.ts; this file only
 * measures text with jspdf's metrics and draws the layout's operations.
 */
import type { jsPDF } from 'jspdf';
import type { ReportData } from './reportData.js';
import { layoutReport, type Measure, type PdfLayout } from './pdfLayout.js';

export interface PdfReport extends ReportData {
  notesTitle: string;
  fileName: string;
}

const font = (doc: jsPDF, size: number, bold: boolean) => {
  doc.setFont('helvetica', bold ? 'bold' : 'normal');
  doc.setFontSize(size);
};

/** jspdf's Helvetica metrics (millimetres, the document's unit). */
export function measureWith(doc: jsPDF): Measure {
  return {
    width(text, size, bold) {
      font(doc, size, bold);
      return doc.getTextWidth(text);
    },
    split(text, maxWidth, size, bold) {
      font(doc, size, bold);
      return doc.splitTextToSize(text, maxWidth) as string[];
    },
  };
}

/** Draws the layout's pages into `doc` (which has one empty page). */
export function drawLayout(doc: jsPDF, layout: PdfLayout): void {
  layout.pages.forEach((ops, i) => {
    if (i > 0) doc.addPage();
    for (const o of ops) {
      if (o.op === 'rect') {
        doc.setFillColor(...o.fill);
        doc.rect(o.x, o.y, o.w, o.h, 'F');
      } else if (o.op === 'line') {
        doc.setDrawColor(...o.color);
        doc.setLineWidth(o.width);
        doc.line(o.x1, o.y1, o.x2, o.y2);
      } else {
        font(doc, o.size, o.bold);
        doc.setTextColor(...o.color);
        doc.text(o.text, o.x, o.y, { align: o.align });
      }
    }
  });
}

/** A new A4 document with the report drawn in it (jspdf's constructor is passed in, so it stays a lazily loaded chunk). */
export function buildPdf(JsPdf: typeof jsPDF, report: PdfReport): jsPDF {
  const doc = new JsPdf({ orientation: 'portrait', unit: 'mm', format: 'a4' });
  doc.setLanguage(report.lang === 'es' ? 'es-MX' : 'en-US');
  doc.setDocumentProperties({ title: report.title, subject: report.header.place, creator: report.header.product });
  drawLayout(doc, layoutReport(report, measureWith(doc)));
  return doc;
}

/** Builds the PDF and saves it; returns the file name. */
export async function downloadPdf(report: PdfReport): Promise<string> {
  const { jsPDF } = await import('jspdf');
  const doc = buildPdf(jsPDF, report);
  const fileName = `${report.fileName}.pdf`;
  doc.save(fileName);
  return fileName;
}
