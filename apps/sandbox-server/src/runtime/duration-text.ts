/** `0.4 ms`, `12 ms`, `1.5 s`: one decimal below 10 ms, whole milliseconds up to a second, then seconds. */
export function formatDuration(ms: number): string {
  if (ms < 10) return `${(Math.round(ms * 10) / 10).toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
