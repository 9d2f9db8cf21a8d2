import { ApiError, requestJson, upload, UNREACHABLE, type Credentials } from './api';
import type { Charset } from './decode';
import { readDeclared } from './declared';
import { detectHeaderRow } from './header-row';
import { createTranslator, type Translator } from './i18n/translate';
import { MappingStep, type TemplateFields } from './mapping-step';
import { delimiterName } from './mapping-view';
import { STYLES } from './styles';
import { importMeta, type Loaded } from './import-meta';
import { confirmedMapping, importBody } from './submit';
import { readFields } from './template';
import { applyTheme, followTheme, onSchemeChange, type Theme } from './theme';
import { readFile } from './reader/read-file';
import { Rows } from './rows';
import { confirmedReading, pageReading, sendWholeFile } from './upload-step';
import { ValueStep } from './value-step';
import { busyView, doneView, errorView, pickView, sheetView } from './views';
import { ReviewModel } from './grid/review-model';
import { reviewView, ReviewStep } from './grid/review-step';
import type { ChangePreview } from './grid/change-preview';
import { keyedPreview } from './grid/keyed-preview';
import { pageRules, type PageRules } from './validate';

/** The steps, as `importd:step` names them. */
export type Step = 'pick' | 'sheet' | 'mapping' | 'values' | 'review' | 'submitting' | 'processing' | 'done';

/**
 * `<importd-importer server public-key session-token template-id locale>`: pick or drop a file, choose its
 * sheet and header row, confirm the column mapping and the values, fix invalid cells, submit. Dispatches
 * `importd:step`, `importd:complete` and `importd:error`; `open(file)` and `reset()` drive it from the page.
 */
export class ImporterElement extends HTMLElement {
  private readonly root: ShadowRoot;
  private readonly view: HTMLElement;
  private readonly alert: HTMLElement;
  private lifetime: AbortController | undefined;
  private theme: Theme | undefined;
  private template: (TemplateFields & { key: string; rules: PageRules | undefined }) | undefined;
  /** Settles once the template is loaded (or failed to): the mapping step waits for it. */
  private templateLoaded: Promise<void> = Promise.resolve();
  private loaded: Loaded | undefined;
  private headerRow = 0;
  private headerChosen = false;
  /** The mapping of the sheet from its header row down. */
  private mapped: MappingStep | undefined;
  /** Its table once the values are confirmed (header row first): what the review shows and the import sends. */
  private prepared = Rows.of([]);
  private values: ValueStep | undefined;
  private review: ReviewModel | undefined;
  /** A keyed template's preview of what the import changes, while the review is shown. */
  private preview: ChangePreview | undefined;
  /** The step shown; undefined until the first render (which dispatches importd:step too). */
  private step: Step | undefined;
  private t: Translator = createTranslator([]);

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = STYLES;
    this.view = document.createElement('div');
    this.alert = document.createElement('div');
    this.alert.setAttribute('role', 'alert');
    this.root.append(style, this.view, this.alert);
  }

  connectedCallback(): void {
    this.lifetime = new AbortController();
    this.t = createTranslator([this.getAttribute('locale') ?? '', ...navigator.languages].filter(Boolean));
    const credentials = this.credentials();
    if (!credentials) return this.showError(new Error(this.t.t('missingAttributes')));
    this.showPick(false);
    this.templateLoaded = this.loadTemplate(credentials);
    this.followTheme(credentials, this.lifetime.signal);
  }

  disconnectedCallback(): void {
    this.lifetime?.abort();
  }

  /** Reads `file` as if the end-user had picked it (the page's own file input or drop zone). */
  async open(file: File): Promise<void> {
    this.headerChosen = false;
    await this.read(file, {});
  }

  /** Back to the first step; whatever was read is dropped. */
  reset(): void {
    this.alert.textContent = '';
    this.showPick();
  }

  private credentials(): (Credentials & { templateId: string }) | undefined {
    const [server, publicKey, sessionToken, templateId] = ['server', 'public-key', 'session-token', 'template-id'].map((name) => this.getAttribute(name) ?? '');
    if (!server || !publicKey || !sessionToken || !templateId) return undefined;
    return { server, publicKey, sessionToken, templateId };
  }

  private async loadTemplate(credentials: Credentials & { templateId: string }): Promise<void> {
    try {
      const template = await requestJson<{ id: string; key: string; schema: unknown }>(credentials, 'GET', `/v1/templates/${encodeURIComponent(credentials.templateId)}`);
      this.template = { id: template.id, key: template.key, fields: readFields(template.schema), declared: readDeclared(template.schema), rules: pageRules(template.schema) };
    } catch (error) {
      this.showError(error);
    }
  }

  /**
   * The theme stream sends the current theme first, then each change: no separate GET /v1/themes, whose 404
   * for an account without a theme the browser would log as an error on every page.
   */
  private followTheme(credentials: Credentials, signal: AbortSignal): void {
    onSchemeChange(() => this.theme && applyTheme(this, this.theme), signal);
    void followTheme(
      credentials,
      (theme) => {
        this.theme = theme;
        applyTheme(this, theme);
      },
      signal,
    );
  }

  /**
   * Shows a step. After a user action the focus moves to what comes next (the first invalid control, else the
   * step's main button), so the flow works by keyboard; the first render leaves the host page's focus alone.
   */
  private render(step: Step, html: string, moveFocus = true, focus?: string): void {
    if (step !== 'review') this.preview?.cancel();
    this.view.innerHTML = html;
    for (const button of this.view.querySelectorAll<HTMLButtonElement>('button[data-action]')) {
      button.addEventListener('click', () => void this.act(button.dataset.action!));
    }
    if (step !== this.step) {
      this.step = step;
      this.dispatchEvent(new CustomEvent('importd:step', { detail: { step }, bubbles: true, composed: true }));
    }
    if (!moveFocus) return;
    const next = [focus, 'input[aria-invalid="true"]', 'button.primary:not([disabled])', 'select[aria-invalid="true"]', 'input, select, button'].map((selector) => (selector ? this.view.querySelector<HTMLElement>(selector) : null));
    next.find(Boolean)?.focus();
  }

  private async act(action: string): Promise<void> {
    this.alert.textContent = '';
    try {
      if (action === 'restart' || (action === 'back' && (this.step === 'mapping' || this.step === 'sheet'))) this.showPick();
      else if (action === 'back' || action === 'back-to-mapping') this.showMapping();
      else if (action === 'choose-sheet') await this.chooseSheet();
      else if (action === 'confirm-mapping') await this.confirmMapping();
      else if (action === 'confirm-values') this.confirmValues();
      else if (action === 'submit') await this.submit();
    } catch (error) {
      this.showError(error);
    }
  }

  private showPick(moveFocus = true): void {
    this.loaded = undefined;
    this.render('pick', pickView(this.t), moveFocus);
    const input = this.view.querySelector<HTMLInputElement>('input[type=file]')!;
    input.addEventListener('change', () => input.files?.[0] && void this.open(input.files[0]));
    const zone = this.view.querySelector<HTMLElement>('[data-drop]')!;
    zone.addEventListener('dragover', (event) => {
      event.preventDefault();
      zone.classList.add('over');
    });
    zone.addEventListener('dragleave', () => zone.classList.remove('over'));
    zone.addEventListener('drop', (event) => {
      event.preventDefault();
      zone.classList.remove('over');
      const file = event.dataTransfer?.files[0];
      if (file) void this.open(file);
    });
  }

  /** Reads the file (again, with the end-user's charset or delimiter) and shows the sheet or mapping step. */
  private async read(file: File, choices: { charset?: Charset; delimiter?: string }): Promise<void> {
    this.alert.textContent = '';
    try {
      const startedAt = this.loaded?.file === file ? this.loaded.startedAt : new Date().toISOString();
      const kind = /\.xlsx$/i.test(file.name) ? 'xlsx' : /\.(csv|tsv|txt)$/i.test(file.name) || file.type.startsWith('text/') ? 'csv' : undefined;
      if (!kind) throw new Error(this.t.t('unsupported'));
      const { upload, headBytes, partial } = pageReading(file, kind, this.getAttribute('upload-from'), this.t);
      this.render(this.step ?? 'pick', busyView(this.t, this.t.t('reading')));
      const read = await readFile(file, kind, choices, headBytes);
      // A CSV's one sheet is named after the file.
      const sheets = read.csv ? read.sheets.map((sheet) => ({ ...sheet, name: file.name })) : read.sheets;
      this.loaded = { file, sheets, sheetIndex: 0, csv: read.csv, startedAt, upload, partial };
      if (sheets.length > 1) this.render('sheet', sheetView(this.t, sheets));
      else await this.startMapping();
    } catch (error) {
      this.showPick();
      this.showError(error);
    }
  }

  private async chooseSheet(): Promise<void> {
    this.loaded!.sheetIndex = Number(this.view.querySelector<HTMLSelectElement>('#sheet')!.value);
    this.headerChosen = false;
    await this.startMapping();
  }

  private sheetRows(): Rows {
    return this.loaded!.sheets[this.loaded!.sheetIndex]!.rows;
  }

  /** Takes the header row (detected unless the end-user chose one), asks for the suggested mapping, shows it. */
  private async startMapping(): Promise<void> {
    await this.templateLoaded;
    const rows = this.sheetRows();
    if (rows.length === 0) throw new Error(this.t.t('empty'));
    if (!this.headerChosen || this.headerRow >= rows.length) this.headerRow = detectHeaderRow(rows);
    const mapped = new MappingStep(rows.from(this.headerRow), this.template);
    await mapped.suggest(this.credentials()!);
    this.mapped = mapped;
    this.showMapping();
  }

  private showMapping(focus?: string): void {
    const loaded = this.loaded!;
    const mapped = this.mapped!;
    const t = this.t;
    const shape = [t.t(loaded.partial ? 'firstRows' : 'rows', { count: mapped.table.length - 1 }), t.t('columns', { count: mapped.headers.length })];
    if (loaded.csv) shape.push(t.t('separatedBy', { delimiter: delimiterName(t, loaded.csv.delimiter) }));
    const fileSummary = `${loaded.file.name} · ${t.size(loaded.file.size)} · ${shape.join(', ')}`;
    this.render('mapping', mapped.view(t, { fileSummary, csv: loaded.csv, sheetRows: this.sheetRows(), headerRow: this.headerRow }), true, focus);
    mapped.wire(this.view, (next) => this.showMapping(next));
    const charset = this.view.querySelector<HTMLSelectElement>('#charset');
    const delimiter = this.view.querySelector<HTMLSelectElement>('#delimiter');
    const reread = () => void this.read(loaded.file, { charset: charset!.value as Charset, delimiter: delimiter!.value });
    charset?.addEventListener('change', reread);
    delimiter?.addEventListener('change', reread);
    for (const row of this.view.querySelectorAll<HTMLElement>('tr[data-header-row]')) {
      const choose = () => this.chooseHeaderRow(Number(row.dataset.headerRow));
      row.addEventListener('click', choose);
      row.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter' && event.key !== ' ') return;
        event.preventDefault();
        choose();
      });
    }
  }

  private chooseHeaderRow(row: number): void {
    if (row === this.headerRow) return;
    this.headerRow = row;
    this.headerChosen = true;
    void this.startMapping().catch((error: unknown) => this.showError(error));
  }

  private async confirmMapping(): Promise<void> {
    const mapped = this.mapped!;
    if (!mapped.complete()) return this.showMapping();
    if (this.loaded!.upload) return this.sendFile();
    // Counting a million rows' values takes seconds, in slices; a reset meanwhile drops the result.
    this.render('mapping', busyView(this.t, this.t.t('checking')));
    const values = await ValueStep.open(mapped.table, mapped.fields, mapped.mapping, this.template?.declared, mapped.learnedValues);
    if (this.step !== 'mapping') return;
    this.values = values;
    if (this.values.needed()) return this.showValues();
    this.prepared = mapped.table;
    this.showReview();
  }

  private showValues(): void {
    this.render('values', this.values!.view(this.t));
    this.values!.wire(this.view, () => this.showValues());
  }

  private confirmValues(): void {
    this.prepared = this.values!.apply();
    this.showReview();
  }

  /**
   * The review step: the prepared rows (after header row, mapping and values) checked by the server's rules
   * (src/rules) in the page, in a grid to fix them. Edits change `prepared`, so Back and forth keeps them.
   */
  private showReview(): void {
    const sent = this.mapped!.sent();
    const columns = sent.fields.map((field) => ({ key: field.key, label: field.label, column: sent.mapping[field.key] ?? -1 }));
    this.review = new ReviewModel(this.prepared.from(1), columns, this.template?.rules);
    this.preview?.cancel();
    this.render('review', reviewView(this.t, this.review), false);
    const box = this.view.querySelector<HTMLElement>('[data-preview]')!;
    this.preview = keyedPreview(box, this.t, this.template?.rules, columns, { credentials: () => this.credentials()!, payload: () => this.payload(), explain: (error) => this.reportError(error) });
    void new ReviewStep(this.view, this.review, this.t, this.preview).start();
  }

  private async submit(): Promise<void> {
    const credentials = this.credentials()!;
    const { meta, rows } = this.payload();
    this.render('submitting', busyView(this.t, this.t.t('uploading'), 0));
    const progress = this.view.querySelector('progress')!;
    try {
      const created = await upload<{ id: string }>(credentials, '/v1/imports', importBody(meta, rows), (fraction) => progress.setAttribute('value', String(fraction)));
      this.complete({ importId: created.id, rowCount: rows.length });
    } catch (error) {
      this.showReview();
      throw error;
    }
  }

  /** A large file: sent whole to /v1/uploads and read by the server (upload-step.ts); a refused file shows the server's error. */
  private async sendFile(): Promise<void> {
    const mapped = this.mapped!;
    const confirmed = { templateId: this.template?.id ?? this.credentials()!.templateId, headerRow: this.headerRow, mapping: mapped.sent().mapping, headers: mapped.headers };
    const reading = confirmedReading(this.loaded!, confirmed, this.t);
    const screen = { view: this.view, shown: () => this.step, show: (step: Step, html: string) => this.render(step, html) };
    try {
      this.complete(await sendWholeFile(this.credentials()!, this.loaded!.file, reading, this.t, screen, this.lifetime!.signal));
    } catch (error) {
      this.showMapping();
      throw error;
    }
  }

  private complete(done: { importId: string; rowCount: number }): void {
    this.render('done', doneView(this.t, done.rowCount));
    this.dispatchEvent(new CustomEvent('importd:complete', { detail: done, bubbles: true, composed: true }));
  }

  /** The import as it would be sent now: its meta, and the rows as edited (the invalid ones left out when skipped). */
  private payload(): { meta: Record<string, unknown>; rows: Record<string, string>[] } {
    const loaded = this.loaded!;
    const mapped = this.mapped!;
    const review = this.review!;
    const rows = review.recordsToSend();
    const mapping = confirmedMapping(mapped.fields, mapped.mapping, mapped.headers);
    const valueMapping = this.values?.confirmed() ?? {};
    const counts = { totalRows: review.rows.length, sentRows: rows.length };
    const meta = importMeta({ template: this.template, loaded, headerRow: this.headerRow, counts, mapping, valueMapping, locale: this.t.locale });
    return { meta, rows };
  }

  private showError(error: unknown): void {
    const { text, requestId } = this.describe(error);
    this.alert.innerHTML = errorView(this.t, text, requestId);
    this.dispatchError(error);
  }

  /** A failure shown elsewhere than the alert box (the preview): its text, dispatched as `importd:error`. */
  private reportError(error: unknown): string {
    const { text, requestId } = this.describe(error);
    this.dispatchError(error);
    return requestId === undefined ? text : `${text} (${this.t.t('requestId')}: ${requestId})`;
  }

  private describe(error: unknown): { text: string; requestId: string | undefined } {
    const t = this.t;
    if (error instanceof ApiError && error.code === UNREACHABLE) return { text: t.t('unreachable', { server: this.credentials()?.server ?? '', origin: location.origin }), requestId: undefined };
    if (error instanceof ApiError) return { text: `${error.message} (${error.code})`, requestId: error.requestId };
    return { text: error instanceof Error ? error.message : String(error), requestId: undefined };
  }

  private dispatchError(error: unknown): void {
    this.dispatchEvent(new CustomEvent('importd:error', { detail: error instanceof ApiError ? { code: error.code, message: error.message, requestId: error.requestId } : { message: error instanceof Error ? error.message : String(error) }, bubbles: true, composed: true }));
  }
}
