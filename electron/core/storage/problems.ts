// What the data folder's opening found that the user must hear of (shown in the status, logged):
// a damaged or replaced database set aside, an import from the old files, a folder others can read.
export interface StoredProblem {
  kind: 'damage' | 'imported' | 'warning';
  message: string;
}
