// One measured figure of a benchmark, as printed in the table and written by `npm run bench -- --json FILE`.
// `baseline` is the same measure for what a user would otherwise use; `ratio` = value / baseline
// (or the inverse where smaller is better — the `note` says which).
export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  note?: string;
}
