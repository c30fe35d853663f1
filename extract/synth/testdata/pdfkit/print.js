// Print world statements with PDFKit (npm, the version package-lock.json
// pins). Reads a JSON list of {doc, out} on stdin (the layout of
// extract/synth/worldprint.go's docJSON) and writes each PDF: PDFKit's own
// text layer, its own font subsets, its own line breaking in each cell.
'use strict';
const fs = require('fs');
const PDFDocument = require('pdfkit');

const mm = 72 / 25.4;

function draw(doc, out) {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({size: 'A4', margin: 0, autoFirstPage: true, info: {Title: doc.bank, CreationDate: new Date(0)}});
    const stream = fs.createWriteStream(out);
    pdf.pipe(stream);
    stream.on('finish', resolve);
    stream.on('error', reject);
    pdf.registerFont('r', doc.regular);
    pdf.registerFont('b', doc.bold);
    if (doc.script) pdf.registerFont('s', doc.script);
    const size = doc.size;
    const pageW = 595.28, pageH = 841.89;
    const margin = 15 * mm, bottom = pageH - 20 * mm;
    const lh = size * 1.45 * (doc.web ? 1.6 : 1);
    const width = pageW - 2 * margin;
    const xs = [margin];
    for (const w of doc.widths) xs.push(xs[xs.length - 1] + w * width);
    let y = margin, page = 1;
    const footer = () => {
      pdf.font('r').fontSize(size - 1);
      const s = `${doc.pageWord} ${page}`;
      pdf.text(s, (pageW - pdf.widthOfString(s)) / 2, pageH - 12 * mm, {lineBreak: false});
    };
    const newPage = () => { footer(); pdf.addPage(); y = margin; page++; };
    const faceOf = (cell, line) => (doc.script && cell.script) ? 's' : (line.bold ? 'b' : 'r');
    for (const line of doc.lines) {
      y += (line.gap || 0) * lh;
      if (line.pageBreak) { newPage(); continue; }
      const cells = line.cells || [];
      if (!cells.length) continue;
      const s = size * (line.title ? 1.5 : 1);
      let h = 0;
      for (const cell of cells) {
        const cw = xs[cell.col + cell.span] - xs[cell.col] - 2 * mm;
        pdf.font(faceOf(cell, line)).fontSize(s);
        h = Math.max(h, pdf.heightOfString(cell.text, {width: cw, lineGap: lh * s / size - pdf.currentLineHeight()}));
      }
      if (y + h + lh > bottom) newPage();
      if (line.shade) pdf.rect(xs[0], y, xs[xs.length - 1] - xs[0], h).fill('#e1e1e1').fillColor('black');
      if (line.boxed) for (let i = 0; i < doc.widths.length; i++) pdf.rect(xs[i], y, xs[i + 1] - xs[i], h).lineWidth(0.5).stroke();
      for (const cell of cells) {
        const x0 = xs[cell.col] + 1 * mm;
        const cw = xs[cell.col + cell.span] - xs[cell.col] - 2 * mm;
        pdf.font(faceOf(cell, line)).fontSize(s);
        pdf.text(cell.text, x0, y + 0.15 * lh, {width: cw, align: cell.right ? 'right' : 'left', lineGap: lh * s / size - pdf.currentLineHeight()});
      }
      y += h;
      if (line.rule && !doc.web) pdf.moveTo(xs[0], y).lineTo(xs[xs.length - 1], y).lineWidth(0.5).stroke();
    }
    footer();
    pdf.end();
  });
}

(async () => {
  const jobs = JSON.parse(fs.readFileSync(0, 'utf8'));
  for (const job of jobs) await draw(job.doc, job.out);
})().catch((e) => { console.error(e); process.exit(1); });
