/**
 * Dependency-free SVG charts for benchmark results: log-log line charts (ms against N) and heat maps
 * (a value over a 2-D grid, as the OCSI paper's run-time surfaces). Several charts can be laid out on
 * one page with {@link svgPage}.
 */

/** One line of a line chart. */
export interface Series {
  name: string;
  points: Array<[x: number, y: number]>;
}

export interface LineChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  logX?: boolean;
  logY?: boolean;
  width?: number;
  height?: number;
  /** Horizontal reference lines, e.g. a 16.7 ms frame budget. */
  guides?: Array<{ y: number; label: string }>;
}

const PALETTE = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#7f7f7f',
  '#bcbd22',
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function fmt(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e9 || a < 0.01) return v.toExponential(0).replace('e+', 'e');
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1000) return `${+(v / 1000).toFixed(1)}k`;
  return a >= 10 ? v.toFixed(0) : a >= 1 ? v.toFixed(1) : v.toFixed(2);
}

function ticks(lo: number, hi: number, log: boolean): number[] {
  if (log) {
    const out: number[] = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      for (const m of [1, 2, 5]) {
        const v = m * 10 ** e;
        if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
      }
    }
    return out;
  }
  const step = 10 ** Math.floor(Math.log10((hi - lo) / 4 || 1));
  const n = Math.ceil((hi - lo) / step);
  const s = n > 10 ? step * (n > 20 ? 5 : 2) : step;
  const out: number[] = [];
  for (let v = Math.ceil(lo / s) * s; v <= hi + 1e-9; v += s) out.push(v);
  return out;
}

/** One series per distinct `name(row)`, in order of first appearance, of the points `point(row)`. */
export function seriesBy<R>(
  rows: R[],
  name: (row: R) => string,
  point: (row: R) => [number, number],
): Series[] {
  const byName = new Map<string, Series>();
  for (const row of rows) {
    const key = name(row);
    const series = byName.get(key) ?? { name: key, points: [] };
    series.points.push(point(row));
    byName.set(key, series);
  }
  return [...byName.values()];
}

/** A line chart as a standalone SVG string. Non-finite or non-positive (on log axes) points are skipped. */
export function lineChart(series: Series[], o: LineChartOptions): string {
  const H = o.height ?? 400;
  // The legend sits right of the plot: as wide as its longest name.
  const longest = Math.max(0, ...series.map((x) => x.name.length));
  const m = { l: 64, r: Math.max(180, 48 + 6.2 * longest), t: 36, b: 48 };
  const W = (o.width ?? 640) + m.r - 180;
  const logX = o.logX ?? true;
  const logY = o.logY ?? true;
  const ok = (x: number, y: number) =>
    Number.isFinite(x) && Number.isFinite(y) && (!logX || x > 0) && (!logY || y > 0);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const s of series)
    for (const [x, y] of s.points)
      if (ok(x, y)) {
        xs.push(x);
        ys.push(y);
      }
  for (const g of o.guides ?? []) ys.push(g.y);
  if (xs.length === 0) return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"></svg>`;
  let x0 = Math.min(...xs);
  let x1 = Math.max(...xs);
  let y0 = Math.min(...ys);
  let y1 = Math.max(...ys);
  if (x0 === x1) [x0, x1] = logX ? [x0 / 2, x1 * 2] : [x0 - 1, x1 + 1];
  if (y0 === y1) [y0, y1] = logY ? [y0 / 2, y1 * 2] : [y0 - 1, y1 + 1];
  if (!logY) y0 = Math.min(0, y0);
  const tx = (x: number) =>
    m.l + (logX ? Math.log(x / x0) / Math.log(x1 / x0) : (x - x0) / (x1 - x0)) * (W - m.l - m.r);
  const ty = (y: number) =>
    H - m.b - (logY ? Math.log(y / y0) / Math.log(y1 / y0) : (y - y0) / (y1 - y0)) * (H - m.t - m.b);
  const parts: string[] = [];
  parts.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  parts.push(
    `<text x="${W / 2 - m.r / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(o.title)}</text>`,
  );
  for (const v of ticks(x0, x1, logX)) {
    const x = tx(v).toFixed(1);
    parts.push(`<line x1="${x}" x2="${x}" y1="${m.t}" y2="${H - m.b}" stroke="#eee"/>`);
    parts.push(`<text x="${x}" y="${H - m.b + 16}" text-anchor="middle" font-size="11">${fmt(v)}</text>`);
  }
  for (const v of ticks(y0, y1, logY)) {
    const y = ty(v).toFixed(1);
    parts.push(`<line x1="${m.l}" x2="${W - m.r}" y1="${y}" y2="${y}" stroke="#eee"/>`);
    parts.push(
      `<text x="${m.l - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" font-size="11">${fmt(v)}</text>`,
    );
  }
  parts.push(
    `<rect x="${m.l}" y="${m.t}" width="${W - m.l - m.r}" height="${H - m.t - m.b}" fill="none" stroke="#333"/>`,
  );
  parts.push(
    `<text x="${(m.l + W - m.r) / 2}" y="${H - 10}" text-anchor="middle" font-size="12">${esc(o.xLabel)}</text>`,
  );
  parts.push(
    `<text transform="translate(16 ${(m.t + H - m.b) / 2}) rotate(-90)" text-anchor="middle" font-size="12">${esc(o.yLabel)}</text>`,
  );
  for (const g of o.guides ?? []) {
    const y = ty(g.y).toFixed(1);
    parts.push(
      `<line x1="${m.l}" x2="${W - m.r}" y1="${y}" y2="${y}" stroke="#999" stroke-dasharray="6 4"/>`,
    );
    parts.push(
      `<text x="${W - m.r - 4}" y="${Number(y) - 4}" text-anchor="end" font-size="10" fill="#666">${esc(g.label)}</text>`,
    );
  }
  series.forEach((s, i) => {
    const c = PALETTE[i % PALETTE.length];
    const pts = s.points.filter(([x, y]) => ok(x, y));
    if (pts.length > 1) {
      const d = pts.map(([x, y], k) => `${k ? 'L' : 'M'}${tx(x).toFixed(1)},${ty(y).toFixed(1)}`).join('');
      parts.push(`<path d="${d}" fill="none" stroke="${c}" stroke-width="2"/>`);
    }
    for (const [x, y] of pts)
      parts.push(`<circle cx="${tx(x).toFixed(1)}" cy="${ty(y).toFixed(1)}" r="3" fill="${c}"/>`);
    const ly = m.t + 8 + i * 18;
    parts.push(
      `<line x1="${W - m.r + 10}" x2="${W - m.r + 30}" y1="${ly}" y2="${ly}" stroke="${c}" stroke-width="3"/>`,
    );
    parts.push(
      `<text x="${W - m.r + 36}" y="${ly}" dominant-baseline="middle" font-size="11">${esc(s.name)}</text>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">${parts.join('')}</svg>`;
}

export interface HeatMapOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  /** Cell centres along x and y (ascending). */
  xs: number[];
  ys: number[];
  /** Colour scale bounds; default: the data's min and max. Share them to compare several maps. */
  min?: number;
  max?: number;
  unit?: string;
  width?: number;
  height?: number;
}

function viridis(t: number): string {
  const stops = [
    [68, 1, 84],
    [59, 82, 139],
    [33, 145, 140],
    [94, 201, 98],
    [253, 231, 37],
  ];
  const u = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(u));
  const f = u - i;
  const c = stops[i].map((v, k) => Math.round(v + (stops[i + 1][k] - v) * f));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/** A heat map of `values[iy][ix]` as a standalone SVG string. */
export function heatMap(values: number[][], o: HeatMapOptions): string {
  const W = o.width ?? 360;
  const H = o.height ?? 320;
  const m = { l: 48, r: 70, t: 32, b: 40 };
  const flat = values.flat().filter(Number.isFinite);
  const lo = o.min ?? Math.min(...flat);
  const hi = o.max ?? Math.max(...flat);
  const cw = (W - m.l - m.r) / o.xs.length;
  const ch = (H - m.t - m.b) / o.ys.length;
  const parts: string[] = [`<rect width="${W}" height="${H}" fill="white"/>`];
  parts.push(
    `<text x="${(W - m.r + m.l) / 2}" y="20" text-anchor="middle" font-size="13" font-weight="bold">${esc(o.title)}</text>`,
  );
  values.forEach((row, iy) => {
    row.forEach((v, ix) => {
      const x = m.l + ix * cw;
      const y = H - m.b - (iy + 1) * ch;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(cw + 0.5).toFixed(1)}" height="${(ch + 0.5).toFixed(1)}" fill="${viridis((v - lo) / (hi - lo || 1))}"><title>${fmt(v)}</title></rect>`,
      );
    });
  });
  const every = Math.max(1, Math.ceil(o.xs.length / 6));
  o.xs.forEach((v, i) => {
    if (i % every === 0)
      parts.push(
        `<text x="${(m.l + (i + 0.5) * cw).toFixed(1)}" y="${H - m.b + 14}" text-anchor="middle" font-size="10">${fmt(v)}</text>`,
      );
  });
  o.ys.forEach((v, i) => {
    if (i % every === 0)
      parts.push(
        `<text x="${m.l - 4}" y="${(H - m.b - (i + 0.5) * ch).toFixed(1)}" text-anchor="end" dominant-baseline="middle" font-size="10">${fmt(v)}</text>`,
      );
  });
  parts.push(
    `<text x="${(m.l + W - m.r) / 2}" y="${H - 8}" text-anchor="middle" font-size="11">${esc(o.xLabel)}</text>`,
  );
  parts.push(
    `<text transform="translate(12 ${(m.t + H - m.b) / 2}) rotate(-90)" text-anchor="middle" font-size="11">${esc(o.yLabel)}</text>`,
  );
  const bx = W - m.r + 14;
  for (let i = 0; i < 20; i++) {
    const y = H - m.b - ((i + 1) * (H - m.t - m.b)) / 20;
    parts.push(
      `<rect x="${bx}" y="${y.toFixed(1)}" width="14" height="${((H - m.t - m.b) / 20 + 0.5).toFixed(1)}" fill="${viridis((i + 0.5) / 20)}"/>`,
    );
  }
  parts.push(`<text x="${bx + 18}" y="${m.t + 8}" font-size="10">${fmt(hi)}</text>`);
  parts.push(`<text x="${bx + 18}" y="${H - m.b}" font-size="10">${fmt(lo)}</text>`);
  if (o.unit) parts.push(`<text x="${bx}" y="${m.t - 6}" font-size="10">${esc(o.unit)}</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">${parts.join('')}</svg>`;
}

/** Lays out standalone SVG charts in a grid on one page. */
export function svgPage(charts: string[], columns: number, title?: string): string {
  const size = (svg: string) => {
    const w = Number(/width="(\d+)"/.exec(svg)?.[1] ?? 400);
    const h = Number(/height="(\d+)"/.exec(svg)?.[1] ?? 300);
    return [w, h];
  };
  const head = title ? 36 : 0;
  const colW: number[] = [];
  const rowH: number[] = [];
  charts.forEach((c, i) => {
    const [w, h] = size(c);
    colW[i % columns] = Math.max(colW[i % columns] ?? 0, w);
    rowH[Math.floor(i / columns)] = Math.max(rowH[Math.floor(i / columns)] ?? 0, h);
  });
  const W = colW.reduce((a, b) => a + b, 0);
  const H = head + rowH.reduce((a, b) => a + b, 0);
  const parts = [`<rect width="${W}" height="${H}" fill="white"/>`];
  if (title)
    parts.push(
      `<text x="${W / 2}" y="24" text-anchor="middle" font-size="18" font-weight="bold">${esc(title)}</text>`,
    );
  charts.forEach((c, i) => {
    const col = i % columns;
    const row = Math.floor(i / columns);
    const x = colW.slice(0, col).reduce((a, b) => a + b, 0);
    const y = head + rowH.slice(0, row).reduce((a, b) => a + b, 0);
    parts.push(
      `<g transform="translate(${x} ${y})">${c.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '')}</g>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">${parts.join('')}</svg>`;
}
