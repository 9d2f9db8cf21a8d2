import type { Translator } from '../i18n/translate';
import type { Choice } from '../validate';
import { escapeHtml } from '../views';

/**
 * Edits one cell in place: a text box, or for an enum field a choice of the template's options (the cell's
 * own text first, so nothing changes until an option is picked). Enter or leaving the cell keeps the text,
 * Escape restores it; `onDone` gets the new text, or undefined when nothing changed.
 */
export function editCell(cell: HTMLElement, text: string, label: string, t: Translator, choices: readonly Choice[] | undefined, onDone: (text: string | undefined) => void): void {
  let done = false;
  const finish = (value: string | undefined) => {
    if (done) return;
    done = true;
    onDone(value === text ? undefined : value);
  };
  if (choices !== undefined) {
    const own = choices.some((choice) => choice.value === text) ? '' : `<option value="${escapeHtml(text)}" selected>${escapeHtml(text === '' ? t.t('emptyCell') : text)}</option>`;
    const options = choices.map((choice) => `<option value="${escapeHtml(choice.value)}"${choice.value === text ? ' selected' : ''}>${escapeHtml(choice.label === choice.value ? choice.value : `${choice.label} (${choice.value})`)}</option>`);
    cell.innerHTML = `<select class="editor" aria-label="${escapeHtml(label)}">${own}${options.join('')}</select>`;
  } else {
    cell.innerHTML = `<input type="text" class="editor" aria-label="${escapeHtml(label)}" value="${escapeHtml(text)}">`;
  }
  const editor = cell.querySelector<HTMLInputElement | HTMLSelectElement>('.editor')!;
  editor.addEventListener('click', (event) => event.stopPropagation());
  (editor as HTMLElement).addEventListener('keydown', (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Enter') finish(editor.value);
    else if (event.key === 'Escape') finish(undefined);
  });
  if (editor instanceof HTMLSelectElement) editor.addEventListener('change', () => finish(editor.value));
  editor.addEventListener('blur', () => finish(editor.value));
  editor.focus();
  if (editor instanceof HTMLInputElement) editor.select();
}
