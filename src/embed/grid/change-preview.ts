import type { Translator } from '../i18n/translate';
import { escapeHtml } from '../views';

/** What `POST /v1/imports` with `dryRun: true` answers that the preview shows. */
export interface DryRunAnswer {
  changes: { inserted: number; updated: number; unchanged: number; missing: number } | null;
  rows: { change: 'inserted' | 'updated'; data: Record<string, unknown>; previous?: Record<string, unknown> }[];
}

/** The preview waits this long after the last change of the rows before asking: a burst of edits makes one request. */
const SETTLE_MS = 300;
/** Updated records listed with their previous values. */
const SHOWN_ROWS = 5;

/**
 * The review's preview for a keyed template: what the import would change in the template's dataset
 * ("120 new, 14 changed, 3 missing"), and the first updated records with their values before, from a dry run
 * of the rows as they would be sent. A newer request (the rows changed) cancels the one in flight; a failed
 * one is shown, and leaves the step as it was (Back, and submit when the rows are valid).
 */
export class ChangePreview {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private request: AbortController | undefined;

  constructor(
    private readonly box: HTMLElement,
    private readonly t: Translator,
    private readonly fields: { primaryKey: readonly string[]; labels: ReadonlyMap<string, string> },
    private readonly dryRun: (signal: AbortSignal) => Promise<DryRunAnswer>,
    /** The text of a failure (the element also dispatches it as `importd:error`). */
    private readonly explain: (error: unknown) => string,
  ) {
    box.hidden = false;
  }

  /** The rows to send changed and are all valid: asks again once they settle. */
  refresh(): void {
    this.cancel();
    this.show('checking', `<p role="status" class="note">${escapeHtml(this.t.t('previewChecking'))}</p>`);
    this.timer = setTimeout(() => void this.load(), SETTLE_MS);
  }

  /** Some row to send is invalid: nothing to preview until it is fixed or skipped. */
  wait(): void {
    this.cancel();
    this.show('waiting', `<p class="note">${escapeHtml(this.t.t('previewWaiting'))}</p>`);
  }

  /** Stops the request in flight (the step is left, or the rows changed). */
  cancel(): void {
    clearTimeout(this.timer);
    this.request?.abort();
    this.request = undefined;
  }

  private async load(): Promise<void> {
    const request = (this.request = new AbortController());
    try {
      const answer = await this.dryRun(request.signal);
      if (!request.signal.aborted) this.showAnswer(answer);
    } catch (error) {
      if (!request.signal.aborted) this.show('failed', `<p role="alert">${escapeHtml(this.t.t('previewFailed', { message: this.explain(error) }))}</p>`);
    }
  }

  private show(state: string, html: string): void {
    this.box.dataset.state = state;
    this.box.innerHTML = `<h3>${escapeHtml(this.t.t('previewTitle'))}</h3>${html}`;
  }

  private showAnswer({ changes, rows }: DryRunAnswer): void {
    const { t } = this;
    const counts = changes ?? { inserted: 0, updated: 0, unchanged: 0, missing: 0 };
    const parts: [string, string][] = [
      ['inserted', t.t('changeInserted', { count: counts.inserted })],
      ['updated', t.t('changeUpdated', { count: counts.updated })],
    ];
    if (counts.unchanged > 0) parts.push(['unchanged', t.t('changeUnchanged', { count: counts.unchanged })]);
    if (counts.missing > 0) parts.push(['missing', t.t('changeMissing', { count: counts.missing })]);
    const summary = t.units(parts.map(([change, text]) => `<span data-change="${change}">${escapeHtml(text)}</span>`));
    const missing = counts.missing > 0 ? `<p class="note">${escapeHtml(t.t('previewMissing', { count: counts.missing }))}</p>` : '';
    const updated = rows.filter((row) => row.change === 'updated' && row.previous !== undefined).slice(0, SHOWN_ROWS);
    const list = updated.length === 0 ? '' : `<p>${escapeHtml(t.t('previewChangedRows'))}</p><ul data-changed-rows>${updated.map((row) => this.rowHtml(row)).join('')}</ul>`;
    this.show('ready', `<p role="status" data-preview-summary>${summary}</p>${missing}${list}`);
  }

  private rowHtml(row: DryRunAnswer['rows'][number]): string {
    const key = this.fields.primaryKey.map((field) => this.text(row.data[field])).join(' · ');
    const changes = Object.entries(row.previous ?? {}).map(([field, before]) =>
      this.t.t('previewChange', { field: this.fields.labels.get(field) ?? field, before: this.text(before), after: this.text(row.data[field]) }),
    );
    return `<li><strong>${escapeHtml(key)}</strong> ${escapeHtml(changes.join('; '))}</li>`;
  }

  private text(value: unknown): string {
    return value === undefined || value === null || value === '' ? this.t.t('emptyCell') : String(value);
  }
}
