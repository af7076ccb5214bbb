/** A line chart as SVG text, for docs/benchmarks.md: one line per series over the same x values, spaced evenly. */
export interface Chart {
  title: string;
  xLabel: string;
  xs: number[];
  series: { name: string; ys: number[] }[];
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function lineChart(c: Chart): string {
  const width = 760;
  const plot = { left: 60, top: 40, width: 400, height: 260 };
  const all = c.series.flatMap((s) => s.ys).filter(Number.isFinite);
  const lo = Math.min(0.5, ...all);
  const hi = Math.max(1.5, ...all);
  const x = (i: number) => plot.left + (c.xs.length === 1 ? plot.width / 2 : (i * plot.width) / (c.xs.length - 1));
  const y = (v: number) => plot.top + plot.height - ((v - lo) / (hi - lo)) * plot.height;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${plot.top + plot.height + 60}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${plot.left}" y="20" font-size="14">${escape(c.title)}</text>`,
  ];
  for (let t = Math.ceil(lo * 4) / 4; t <= hi + 1e-9; t += 0.25) {
    out.push(`<line x1="${plot.left}" x2="${plot.left + plot.width}" y1="${y(t)}" y2="${y(t)}" stroke="${t === 1 ? '#888' : '#eee'}"/>`);
    out.push(`<text x="${plot.left - 6}" y="${y(t) + 4}" text-anchor="end">${t.toFixed(2)}×</text>`);
  }
  c.xs.forEach((v, i) => out.push(`<text x="${x(i)}" y="${plot.top + plot.height + 18}" text-anchor="middle">${v.toLocaleString('en')}</text>`));
  out.push(`<text x="${plot.left + plot.width / 2}" y="${plot.top + plot.height + 40}" text-anchor="middle">${escape(c.xLabel)}</text>`);
  c.series.forEach((s, k) => {
    const color = COLORS[k % COLORS.length] as string;
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${s.ys.map((v, i) => `${x(i)},${y(v)}`).join(' ')}"/>`);
    s.ys.forEach((v, i) => out.push(`<circle cx="${x(i)}" cy="${y(v)}" r="3" fill="${color}"/>`));
    out.push(`<rect x="${plot.left + plot.width + 20}" y="${plot.top + k * 20}" width="12" height="3" fill="${color}"/>`);
    out.push(`<text x="${plot.left + plot.width + 38}" y="${plot.top + k * 20 + 5}">${escape(s.name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
