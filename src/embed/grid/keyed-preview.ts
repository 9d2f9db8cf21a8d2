import { requestJson, type Credentials } from '../api';
import type { Translator } from '../i18n/translate';
import { importBody } from '../submit';
import type { PageRules } from '../validate';
import { ChangePreview, type DryRunAnswer } from './change-preview';
import type { ReviewColumn } from './review-model';

/** What the preview asks the server with, read at each request (the rows change while the review is shown). */
export interface PreviewSource {
  credentials(): Credentials;
  /** The import as it would be sent now. */
  payload(): { meta: Record<string, unknown>; rows: Record<string, string>[] };
  /** The text of a failure (the element also dispatches it as `importd:error`). */
  explain(error: unknown): string;
}

/**
 * The review's preview of what the import changes in a keyed template's dataset (change-preview.ts), in `box`:
 * each request is a dry run of `POST /v1/imports` with the rows as they stand, nothing stored. Undefined for a
 * template without a primary key (nothing to match the rows with).
 */
export function keyedPreview(box: HTMLElement, t: Translator, rules: PageRules | undefined, columns: readonly ReviewColumn[], source: PreviewSource): ChangePreview | undefined {
  const primaryKey = rules?.rules.primaryKey ?? [];
  if (primaryKey.length === 0) return undefined;
  const labels = new Map(columns.map((column) => [column.key, column.label]));
  const dryRun = (signal: AbortSignal) => {
    const { meta, rows } = source.payload();
    return requestJson<DryRunAnswer>(source.credentials(), 'POST', '/v1/imports', importBody(meta, rows, { dryRun: true }), signal);
  };
  return new ChangePreview(box, t, { primaryKey, labels }, dryRun, (error) => source.explain(error));
}
