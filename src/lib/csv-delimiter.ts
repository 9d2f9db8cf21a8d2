/** The delimiters a CSV header line is checked for, in order of preference on a tie. */
export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;

/**
 * The delimiter of a CSV file from its header line: the candidate that occurs most often outside quoted
 * fields (`,` when none occurs, as in a one-column file). Spreadsheet programs in many locales write `;`.
 */
export function detectCsvDelimiter(headerLine: string): string {
  const counts = new Map<string, number>(CSV_DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of headerLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best: string = ',';
  for (const delimiter of CSV_DELIMITERS) if (counts.get(delimiter)! > counts.get(best)!) best = delimiter;
  return best;
}
