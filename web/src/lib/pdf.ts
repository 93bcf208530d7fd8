/** The PDF report, drawn in the browser with jspdf loaded on demand (A4 portrait, named after the county). */
import type { ReportSection } from './report.js';

export interface PdfReport { title: string; date: string; sections: ReportSection[]; notes: string[]; disclaimer: string; notesTitle: string; fileName: string }

/** Builds the PDF and saves it; returns the file name. */
export async function downloadPdf(report: PdfReport): Promise<string> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4' });
  const width = doc.internal.pageSize.getWidth();
  const height = doc.internal.pageSize.getHeight();
  const margin = 18;
  let y = margin;
  const ensure = (h: number) => {
    if (y + h > height - margin) {
      doc.addPage();
      y = margin;
    }
  };
  /** A section heading (bold 12), then the body font (normal 10). */
  const heading = (text: string) => {
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(12);
    doc.text(text, margin, y);
    y += 6;
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(10);
  };
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(16);
  for (const line of doc.splitTextToSize(report.title, width - 2 * margin) as string[]) {
    doc.text(line, margin, y);
    y += 7;
  }
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(10);
  doc.text(report.date, margin, y);
  y += 8;
  for (const section of report.sections) {
    ensure(14);
    heading(section.title);
    for (const [label, value] of section.rows) {
      const lines = doc.splitTextToSize(label, width * 0.55) as string[];
      ensure(lines.length * 5 + 1);
      doc.text(lines, margin, y);
      if (value) doc.text(value, width - margin, y, { align: 'right' });
      y += lines.length * 5 + 1;
    }
    y += 3;
  }
  if (report.notes.length) {
    ensure(12);
    heading(report.notesTitle);
    for (const n of report.notes) {
      const lines = doc.splitTextToSize(`- ${n}`, width - 2 * margin) as string[];
      ensure(lines.length * 5);
      doc.text(lines, margin, y);
      y += lines.length * 5;
    }
    y += 3;
  }
  doc.setFontSize(9);
  const disc = doc.splitTextToSize(report.disclaimer, width - 2 * margin) as string[];
  ensure(disc.length * 4.5);
  doc.text(disc, margin, y);
  const fileName = `${report.fileName}.pdf`;
  doc.save(fileName);
  return fileName;
}
