import { ApiError, requestJson, upload, UNREACHABLE, type Credentials } from './api';
import type { Charset } from './decode';
import { STRINGS } from './strings';
import { STYLES } from './styles';
import { confirmedMapping, formatSize, importBody, mappedRows, type Mapping } from './submit';
import { headerLabels, type Sheet } from './table';
import { readFields, type Field } from './template';
import { applyTheme, followTheme, onSchemeChange, type Theme } from './theme';
import { readFile } from './reader/read-file';
import { busyView, doneView, errorView, mapView, pickView, sheetView } from './views';
import { ReviewModel } from './grid/review-model';
import { reviewView, ReviewStep } from './grid/review-step';
import { pageRules, type PageRules } from './validate';

/** Files above this size are refused before they are read (the browser holds them in memory). */
const MAX_FILE_BYTES = 200 * 1024 * 1024;
const SAMPLES = 5;

interface Loaded {
  file: File;
  sheets: Sheet[];
  sheetIndex: number;
  charset: Charset | undefined;
  charsetUncertain: boolean;
  delimiter: string;
  startedAt: string;
}

/**
 * `<importd-importer server public-key session-token template-id>`: pick or drop a file, choose its sheet,
 * confirm the column mapping, fix invalid cells, submit; dispatches `importd:complete` `{ importId, rowCount }`.
 */
export class ImporterElement extends HTMLElement {
  private readonly root: ShadowRoot;
  private readonly view: HTMLElement;
  private readonly alert: HTMLElement;
  private lifetime: AbortController | undefined;
  private theme: Theme | undefined;
  private template: { id: string; key: string; fields: Field[]; rules: PageRules | undefined } | undefined;
  /** Settles once the template is loaded (or failed to): the mapping step waits for it. */
  private templateLoaded: Promise<void> = Promise.resolve();
  private loaded: Loaded | undefined;
  private fields: Field[] = [];
  private mapping: Mapping = {};
  private review: ReviewModel | undefined;

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
    const credentials = this.credentials();
    if (!credentials) return this.showError(new Error(STRINGS.missingAttributes));
    this.showPick(false);
    this.templateLoaded = this.loadTemplate(credentials);
    void this.loadTheme(credentials, this.lifetime.signal);
  }

  disconnectedCallback(): void {
    this.lifetime?.abort();
  }

  private credentials(): (Credentials & { templateId: string }) | undefined {
    const [server, publicKey, sessionToken, templateId] = ['server', 'public-key', 'session-token', 'template-id'].map((name) => this.getAttribute(name) ?? '');
    if (!server || !publicKey || !sessionToken || !templateId) return undefined;
    return { server, publicKey, sessionToken, templateId };
  }

  private async loadTemplate(credentials: Credentials & { templateId: string }): Promise<void> {
    try {
      const template = await requestJson<{ id: string; key: string; schema: unknown }>(credentials, 'GET', `/v1/templates/${encodeURIComponent(credentials.templateId)}`);
      this.template = { id: template.id, key: template.key, fields: readFields(template.schema), rules: pageRules(template.schema) };
    } catch (error) {
      this.showError(error);
    }
  }

  private async loadTheme(credentials: Credentials, signal: AbortSignal): Promise<void> {
    const apply = (theme: Theme) => {
      this.theme = theme;
      applyTheme(this, theme);
    };
    onSchemeChange(() => this.theme && applyTheme(this, this.theme), signal);
    try {
      apply(await requestJson<Theme>(credentials, 'GET', '/v1/themes'));
    } catch (error) {
      // An account without a theme keeps the built-in look; anything else is worth showing.
      if (!(error instanceof ApiError && error.code === 'not_found')) this.showError(error);
    }
    void followTheme(credentials, apply, signal);
  }

  /**
   * Shows a step. After a user action the focus moves to what comes next (the first invalid cell, else the
   * step's main button), so the flow works by keyboard; the first render leaves the host page's focus alone.
   */
  private render(html: string, moveFocus = true): void {
    this.view.innerHTML = html;
    for (const button of this.view.querySelectorAll<HTMLButtonElement>('button[data-action]')) {
      button.addEventListener('click', () => void this.act(button.dataset.action!));
    }
    if (!moveFocus) return;
    const next = ['input[aria-invalid="true"]', 'button.primary:not([disabled])', 'input, select, button'].map((selector) => this.view.querySelector<HTMLElement>(selector));
    next.find(Boolean)?.focus();
  }

  private async act(action: string): Promise<void> {
    this.alert.textContent = '';
    try {
      if (action === 'back' || action === 'restart') this.showPick();
      else if (action === 'choose-sheet') this.chooseSheet();
      else if (action === 'confirm-mapping') this.confirmMapping();
      else if (action === 'submit') await this.submit();
    } catch (error) {
      this.showError(error);
    }
  }

  private showPick(moveFocus = true): void {
    this.loaded = undefined;
    this.render(pickView(), moveFocus);
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

  private async open(file: File, charset?: Charset): Promise<void> {
    this.alert.textContent = '';
    try {
      if (file.size > MAX_FILE_BYTES) throw new Error(STRINGS.tooLarge(formatSize(MAX_FILE_BYTES)));
      const startedAt = new Date().toISOString();
      this.render(busyView(STRINGS.reading));
      const kind = /\.xlsx$/i.test(file.name) ? 'xlsx' : /\.(csv|tsv|txt)$/i.test(file.name) || file.type.startsWith('text/') ? 'csv' : undefined;
      if (!kind) throw new Error(STRINGS.unsupported);
      const read = await readFile(file, kind, charset);
      // A CSV's one sheet is named after the file.
      const sheets = read.csv ? read.sheets.map((sheet) => ({ ...sheet, name: file.name })) : read.sheets;
      this.loaded = { file, sheets, sheetIndex: 0, charset: read.csv?.charset, charsetUncertain: read.csv?.uncertain ?? false, delimiter: read.csv?.delimiter ?? '', startedAt };
      if (this.loaded.sheets.length > 1) this.render(sheetView(this.loaded.sheets));
      else await this.showMapping();
    } catch (error) {
      this.showPick();
      this.showError(error);
    }
  }

  private chooseSheet(): void {
    const loaded = this.loaded!;
    loaded.sheetIndex = Number(this.view.querySelector<HTMLSelectElement>('#sheet')!.value);
    void this.showMapping().catch((error: unknown) => this.showError(error));
  }

  private sheet(): Sheet {
    return this.loaded!.sheets[this.loaded!.sheetIndex]!;
  }

  private async showMapping(): Promise<void> {
    await this.templateLoaded;
    const loaded = this.loaded!;
    const rows = this.sheet().rows;
    if (rows.length === 0) throw new Error(STRINGS.empty);
    const headers = headerLabels(rows[0]!);
    // A template without fields takes every column under its own header.
    this.fields = this.template && this.template.fields.length > 0 ? this.template.fields : headers.map((label) => ({ key: label, label, type: 'string', required: false, pattern: undefined, enum: undefined }));
    this.mapping = this.template && this.template.fields.length > 0 ? await this.suggestMapping(headers, rows) : Object.fromEntries(headers.map((label, column) => [label, column]));
    const summary = `${loaded.file.name} · ${formatSize(loaded.file.size)} · ${STRINGS.detected(rows.length - 1, headers.length, loaded.delimiter)}`;
    this.render(mapView({ fileSummary: summary, charset: loaded.charset, charsetUncertain: loaded.charsetUncertain, headers, fields: this.fields, mapping: this.mapping }));
    const charset = this.view.querySelector<HTMLSelectElement>('#charset');
    charset?.addEventListener('change', () => void this.open(loaded.file, charset.value as Charset));
  }

  private async suggestMapping(headers: string[], rows: string[][]): Promise<Mapping> {
    const samples = (column: number) => rows.slice(1).map((row) => row[column] ?? '').filter((cell) => cell.trim() !== '').slice(0, SAMPLES).map((cell) => cell.slice(0, 200));
    const credentials = this.credentials()!;
    const answer = await requestJson<Record<string, { fileKey: string }>>(credentials, 'POST', '/v1/intelligence/map-headers', {
      // The template's learned mappings count only when the call names it (the session may be bound to it anyway).
      templateId: this.template?.id ?? credentials.templateId,
      schemaHeaders: this.fields.map((field) => ({ key: field.key, label: field.label })),
      fileHeaders: headers.map((label, column) => ({ key: label, label, samples: samples(column) })),
    });
    return Object.fromEntries(this.fields.map((field) => [field.key, answer[field.key] ? headers.indexOf(answer[field.key]!.fileKey) : -1]));
  }

  private confirmMapping(): void {
    for (const select of this.view.querySelectorAll<HTMLSelectElement>('select[data-field]')) this.mapping[select.dataset.field!] = Number(select.value);
    this.showReview();
  }

  /** The review step: every row checked by the server's rules (src/rules) in the page, in a grid to fix them. */
  private showReview(): void {
    const rows = this.sheet().rows;
    const columns = this.fields.map((field) => ({ key: field.key, label: field.label, column: this.mapping[field.key] ?? -1 }));
    this.review = new ReviewModel(rows.slice(1), columns, this.template?.rules);
    this.render(reviewView(this.review));
    void new ReviewStep(this.view, this.review).start();
  }

  private async submit(): Promise<void> {
    const loaded = this.loaded!;
    const credentials = this.credentials()!;
    const review = this.review!;
    // The rows as edited in the review; the invalid ones left out when the end-user skips them.
    const data = review.rowsToSend();
    const rows = mappedRows(data, this.fields, this.mapping);
    const mapping = confirmedMapping(this.fields, this.mapping, headerLabels(this.sheet().rows[0]!));
    const meta = {
      ...(this.template ? { schemaId: this.template.id, schemaKey: this.template.key } : {}),
      sdkVersion: IMPORTD_SDK_VERSION,
      // Origin and path only: a query string may carry tokens of the host page.
      source: { kind: 'upload', referer: `${location.origin}${location.pathname}`.slice(0, 500) },
      file: { name: loaded.file.name, extension: (/\.([^.]+)$/.exec(loaded.file.name)?.[1] ?? '').toLowerCase(), mime: loaded.file.type, sizeBytes: loaded.file.size, formattedSize: formatSize(loaded.file.size), lastModified: new Date(loaded.file.lastModified).toISOString() },
      sheet: { rowCount: review.rows.length, selectedSheetName: this.sheet().name, allSheetNames: loaded.sheets.map((sheet) => sheet.name).slice(0, 100) },
      counts: { totalRows: review.rows.length, validRows: data.length, erroredRows: review.rows.length - data.length, discardedRows: review.rows.length - data.length },
      timings: { startedAt: loaded.startedAt, finishedAt: new Date().toISOString() },
      environment: { userAgent: navigator.userAgent.slice(0, 300), timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, platform: 'web', runtime: 'browser' },
      ...(loaded.charset ? { encoding: { charset: loaded.charset, delimiter: loaded.delimiter } } : {}),
      mapping,
    };
    this.render(busyView(STRINGS.uploading, 0));
    const progress = this.view.querySelector('progress')!;
    try {
      const created = await upload<{ id: string }>(credentials, '/v1/imports', importBody(meta, rows), (fraction) => progress.setAttribute('value', String(fraction)));
      this.render(doneView(rows.length));
      this.dispatchEvent(new CustomEvent('importd:complete', { detail: { importId: created.id, rowCount: rows.length }, bubbles: true, composed: true }));
    } catch (error) {
      this.showReview();
      throw error;
    }
  }

  private showError(error: unknown): void {
    const credentials = this.credentials();
    if (error instanceof ApiError && error.code === UNREACHABLE) {
      this.alert.innerHTML = errorView(STRINGS.unreachable(credentials?.server ?? '', location.origin), undefined);
    } else if (error instanceof ApiError) {
      this.alert.innerHTML = errorView(`${error.message} (${error.code})`, error.requestId);
    } else {
      this.alert.innerHTML = errorView(error instanceof Error ? error.message : String(error), undefined);
    }
    this.dispatchEvent(new CustomEvent('importd:error', { detail: error instanceof ApiError ? { code: error.code, message: error.message, requestId: error.requestId } : { message: String(error) }, bubbles: true, composed: true }));
  }
}
