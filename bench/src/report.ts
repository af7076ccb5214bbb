import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';

export interface Figure {
  name: string;
  ours: number;
  baseline: number | null;
  baselineName: string;
  unit: string;
  /** ours / baseline, oriented as the target reads. */
  ratio: number | null;
  target: string;
  met: boolean | null;
}

const fmt = (n: number | null) => (n === null ? '–' : n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(3));

export function machine() {
  const cpu = cpus();
  return { cpus: cpu.length, cpuModel: cpu[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform}-${process.arch}` };
}

export function renderMarkdown(figures: Figure[], meta: ReturnType<typeof machine> & { date: string; mode: string; cpuPlacement: string }): string {
  const lines = [
    '# Benchmark results',
    '',
    `Measured ${meta.date} on ${meta.cpus} CPU(s) (${meta.cpuModel}), Node ${meta.node}, ${meta.platform}; mode: ${meta.mode}.`,
    `CPU placement: ${meta.cpuPlacement}.`,
    'Every figure was measured in the same run as its baseline. Absolute numbers drift between machines; ratios travel better.',
    '',
    '| Figure | Ours | Baseline | Ratio | Target | Met |',
    '|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    lines.push(
      `| ${f.name} | ${fmt(f.ours)} ${f.unit} | ${f.baseline === null ? '–' : `${fmt(f.baseline)} ${f.unit} (${f.baselineName})`} | ${f.ratio === null ? '–' : `${f.ratio.toFixed(2)}×`} | ${f.target} | ${f.met === null ? '–' : f.met ? 'yes' : 'no'} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export function writeResults(path: string, figures: Figure[], mode: string, cpuPlacement: string): void {
  const meta = { ...machine(), date: new Date().toISOString(), mode, cpuPlacement };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.json`, `${JSON.stringify({ ...meta, figures }, null, 2)}\n`);
  writeFileSync(`${path}.md`, renderMarkdown(figures, meta));
}
